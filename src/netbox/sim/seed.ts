// Demo data: one site with a Proxmox cluster, platforms, the custom fields pvectl uses,
// a prefix with VLANs (and its gateway), and a few VMs requested with status `planned`.
import type { NetboxSimAdmin } from "./index.js";

const VM = "virtualization.virtualmachine";

export function seedDemo(admin: NetboxSimAdmin): void {
  const site = admin.create("dcim/sites", { name: "Lab", slug: "lab" });
  const type = admin.create("virtualization/cluster-types", { name: "Proxmox VE", slug: "proxmox-ve" });
  const cluster = admin.create("virtualization/clusters", { name: "pve-lab", type: type.id, scope_type: "dcim.site", scope_id: site.id });
  const debian = admin.create("dcim/platforms", { name: "Debian 13", slug: "debian-13" });
  const ubuntu = admin.create("dcim/platforms", { name: "Ubuntu 24.04", slug: "ubuntu-24-04" });
  admin.create("dcim/platforms", { name: "Windows Server 2022", slug: "windows-2022" });
  admin.create("extras/tags", { name: "web", slug: "web" });
  admin.create("extras/tags", { name: "db", slug: "db" });
  admin.create("extras/custom-fields", { name: "proxmox_vmid", type: "integer", object_types: [VM], label: "Proxmox VMID" });
  admin.create("extras/custom-fields", { name: "proxmox_node", type: "text", object_types: [VM], label: "Proxmox node" });
  admin.create("extras/custom-fields", { name: "proxmox_storage", type: "text", object_types: [VM], label: "Proxmox storage" });
  const servers = admin.create("ipam/vlans", { vid: 20, name: "servers", site: site.id });
  const storage = admin.create("ipam/vlans", { vid: 30, name: "storage", site: site.id });
  // The prefix records its router's address, so pvectl knows the gateway (it never guesses one).
  admin.create("extras/custom-fields", { name: "gateway", type: "text", object_types: ["ipam.prefix"], label: "Gateway" });
  admin.create("ipam/prefixes", {
    prefix: "10.20.0.0/24",
    vlan: servers.id,
    description: "servers",
    custom_fields: { gateway: "10.20.0.1" },
  });

  const vm = (name: string, body: Record<string, unknown>) =>
    admin.create("virtualization/virtual-machines", { name, status: "planned", site: site.id, cluster: cluster.id, ...body });
  const web1 = vm("web-01", { vcpus: 2, memory: 2048, disk: 20000, platform: debian.id, tags: [{ slug: "web" }] });
  const web2 = vm("web-02", { vcpus: 2, memory: 2048, disk: 20000, platform: debian.id, tags: [{ slug: "web" }] });
  const db1 = vm("db-01", { vcpus: 4, memory: 8192, platform: ubuntu.id, tags: [{ slug: "db" }] });
  for (const v of [web1, web2])
    admin.create("virtualization/interfaces", { virtual_machine: v.id, name: "eth0", mode: "access", untagged_vlan: servers.id });
  admin.create("virtualization/interfaces", { virtual_machine: db1.id, name: "eth0", mode: "access", untagged_vlan: servers.id });
  admin.create("virtualization/interfaces", {
    virtual_machine: db1.id,
    name: "eth1",
    mode: "tagged",
    untagged_vlan: servers.id,
    tagged_vlans: [storage.id],
  });
  admin.create("virtualization/virtual-disks", { virtual_machine: db1.id, name: "root", size: 32000 });
  admin.create("virtualization/virtual-disks", { virtual_machine: db1.id, name: "data", size: 100000 });
}
