// NetBox records whose platform maps to a container become container specs (and then the
// engine's DesiredCt): the record's sizes, disks and interfaces as for a VM, the template and
// container settings from the platform; bad records and configs get their own clear errors.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { desiredContainersOf } from "../../src/app/plan-spec.js";
import { NetboxClient } from "../../src/netbox/client.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { NetboxConfigError, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { type MappingResult, mapRecord } from "../../src/sources/netbox/mapping.js";
import { loadGuestAddresses } from "../../src/sources/netbox/addresses.js";
import { loadRecords } from "../../src/sources/netbox/records.js";
import { DEMO_CONFIG } from "./fixtures.js";

const CT_PLATFORM = `
  debian-ct:
    container:
      ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst
      features: { nesting: true }
      swap: 256
      gw: 10.20.0.1
`;
const config = parseNetboxConfig(DEMO_CONFIG.replace("platforms:\n", `platforms:${CT_PLATFORM}`), "netbox.yaml");
const MiB = 2 ** 20;

describe("mapping NetBox records to containers", () => {
  let nb: NetboxSimulator;
  let client: NetboxClient;
  let cluster = 0;
  let platform = 0;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo" });
    client = new NetboxClient({ url: nb.url, token: nb.token });
    cluster = nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
    platform = nb.admin.create("dcim/platforms", { name: "Debian CT", slug: "debian-ct" }).id as number;
  });
  after(async () => {
    await client.close();
    await nb.close();
  });

  async function mapped(name: string): Promise<MappingResult> {
    const [record] = await loadRecords(client, { status: "planned", names: [name] });
    assert.ok(record, `record ${name} not found`);
    return mapRecord(record, config);
  }

  test("a record of a container platform: rootfs, mount points by disk name, NICs named as in NetBox", async () => {
    const vm = nb.admin.create("virtualization/virtual-machines", {
      name: "ct-01",
      status: "planned",
      cluster,
      platform,
      vcpus: 2,
      memory: 1024,
    });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: vm.id, name: "root", size: 8192 });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: vm.id, name: "/var/lib/data", size: 20480 });
    nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth0", mtu: 1450 });
    nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "mgmt", enabled: false });
    const r = await mapped("ct-01");
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.spec.kind, "container");
    assert.deepEqual(
      r.nics.map((n) => [n.slot, n.interfaceName]),
      [
        ["net0", "eth0"],
        ["net1", "mgmt"],
      ],
    );
    assert.deepEqual(desiredContainersOf({ vms: [], containers: [r.spec as never] }), [
      {
        kind: "lxc",
        key: "ct-01",
        name: "ct-01",
        node: "pve1",
        ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
        options: { cores: "2", memory: "1024", swap: "256", features: "nesting=1" },
        // Which virtual disk each volume holds is recorded on the container (disk-slots.ts).
        tags: ["netbox", "netbox-disk-3-rootfs", "netbox-disk-4-mp0", "netbox-vm-4"],
        mounts: [
          { slot: "rootfs", storage: "local-lvm", sizeBytes: 8192 * MiB, options: {} },
          { slot: "mp0", storage: "local-lvm", sizeBytes: 20480 * MiB, mountpoint: "/var/lib/data", options: {} },
        ],
        nics: [
          { slot: "net0", name: "eth0", bridge: "vmbr0", options: { ip: "dhcp", mtu: "1450" } },
          { slot: "net1", name: "mgmt", bridge: "vmbr0", options: { ip: "dhcp", link_down: "1" } },
        ],
      },
    ]);
  });

  test("the record's primary IPv4 is net0's static address, with the platform's gateway", async () => {
    const vm = nb.admin.create("virtualization/virtual-machines", {
      name: "ct-02",
      status: "planned",
      cluster,
      platform,
      vcpus: 1,
      memory: 512,
      disk: 4096,
    });
    const iface = nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth0" });
    const ip = nb.admin.create("ipam/ip-addresses", {
      address: "10.20.0.42/24",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: iface.id,
    }).id as number;
    nb.admin.update("virtualization/virtual-machines", vm.id as number, { primary_ip4: ip });
    const r = await mapped("ct-02");
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(r.spec.kind === "container");
    assert.deepEqual(r.spec.nics.net0, { name: "eth0", bridge: "vmbr0", options: { ip: "10.20.0.42/24", gw: "10.20.0.1" } });
    assert.deepEqual(r.spec.rootfs, { storage: "local-lvm", sizeBytes: 4096 * MiB, options: {} });
  });

  test("with addresses loaded: each NIC takes the addresses NetBox assigns to its interface, IPv6 with the prefix's gateway", async () => {
    const vm = nb.admin.create("virtualization/virtual-machines", {
      name: "ct-05",
      status: "planned",
      cluster,
      platform,
      vcpus: 1,
      memory: 512,
      disk: 4096,
    });
    nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth0" });
    const eth1 = nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth1" });
    nb.admin.create("ipam/prefixes", { prefix: "2001:db8:20::/64", custom_fields: { gateway: "2001:db8:20::fe" } });
    const ip6 = nb.admin.create("ipam/ip-addresses", {
      address: "2001:db8:20::10/64",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth1.id,
    }).id as number;
    nb.admin.update("virtualization/virtual-machines", vm.id as number, { primary_ip6: ip6 });
    const [record] = await loadRecords(client, { status: "planned", names: ["ct-05"] });
    assert.ok(record);
    await loadGuestAddresses(client, [record], "gateway");
    const r = mapRecord(record, config);
    assert.ok(r.ok && r.spec.kind === "container", JSON.stringify(r));
    assert.deepEqual(r.spec.nics.net0?.options, { ip: "dhcp" });
    assert.deepEqual(r.spec.nics.net1?.options, { ip: "dhcp", ip6: "2001:db8:20::10/64", gw6: "2001:db8:20::fe" });
  });

  test("a further disk without a mount path, and no disk at all, are refused with what to do", async () => {
    const vm = nb.admin.create("virtualization/virtual-machines", {
      name: "ct-03",
      status: "planned",
      cluster,
      platform,
      vcpus: 1,
      memory: 512,
    });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: vm.id, name: "root", size: 4096 });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: vm.id, name: "data", size: 4096 });
    nb.admin.create("virtualization/virtual-machines", { name: "ct-04", status: "planned", cluster, platform, vcpus: 1, memory: 512 });
    const three = await mapped("ct-03");
    assert.deepEqual(three.ok ? [] : three.errors, [
      "virtual disk `data`: a container's further disks are mount points; name the virtual disk after where it is mounted (e.g. /data)",
    ]);
    const four = await mapped("ct-04");
    assert.deepEqual(four.ok ? [] : four.errors, [
      "has no virtual disks and no disk size; add a virtual disk in NetBox, or set `container.size` on the platform (or `defaults.diskSize`)",
    ]);
  });
});

describe("NetBox config: container platforms", () => {
  test("a platform is a VM's (ostype) or a container's, and a container platform takes no VM keys", () => {
    const text = (platform: string) => `clusters:\n  a: { node: pve1 }\nplatforms:\n  p:\n${platform}`;
    assert.throws(
      () => parseNetboxConfig(text("    iso: local:iso/x.iso\n"), "nb.yaml"),
      /nb\.yaml:4:3: platforms\.p: a platform needs `ostype` \(VMs\), `clone: \{ from: \.\.\. \}` \(VMs cloned from a template\) or `container: \{ ostemplate: \.\.\. \}` \(LXC containers\)/,
    );
    assert.throws(
      () => parseNetboxConfig(text("    ostype: l26\n    container: { ostemplate: local:vztmpl/d.tar.zst }\n"), "nb.yaml"),
      (err: unknown) =>
        err instanceof NetboxConfigError &&
        /5:5: platforms\.p\.ostype: `ostype` is a VM setting, and this platform maps to a container; leave it out \(a container's ostype goes under `container:`\)/.test(
          err.userMessage(),
        ),
    );
    assert.throws(
      () => parseNetboxConfig(text("    container: { ostemplate: local:iso/d.iso }\n"), "nb.yaml"),
      /platforms\.p\.container\.ostemplate: expected a template volume/,
    );
  });
});
