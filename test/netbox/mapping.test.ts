// NetBox records -> VmSpec: the happy path for each kind of record in the demo data, and
// each kind of bad record giving its own clear error and no spec.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { NetboxClient } from "../../src/netbox/client.js";
import { NetboxConfigError, parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { type MappingResult, mapRecord } from "../../src/sources/netbox/mapping.js";
import { loadRecords } from "../../src/sources/netbox/records.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";
import { DEMO_CONFIG } from "./fixtures.js";

const config = parseNetboxConfig(DEMO_CONFIG, "netbox.yaml");

describe("mapping NetBox records to VM specs", () => {
  let nb: NetboxSimulator;
  let client: NetboxClient;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo" });
    client = new NetboxClient({ url: nb.url, token: nb.token });
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

  test("web-01: sizes, platform ISO, access VLAN, tags, cluster defaults", async () => {
    const r = await mapped("web-01");
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.spec, {
      kind: "vm",
      name: "web-01",
      node: "pve1",
      state: "present",
      cores: 2,
      memory: 2048,
      ostype: "l26",
      tags: ["netbox", "netbox-vm-1", "web"],
      disks: { scsi0: { storage: "local-lvm", sizeBytes: 20000 * 2 ** 20, options: {} } },
      cdroms: { ide2: { iso: "local:iso/debian-13-netinst.iso" } },
      nics: { net0: { model: "virtio", bridge: "vmbr0", tag: 20 } },
      extraConfig: {},
      source: { file: `netbox:virtualization/virtual-machines/${r.record.vm.id}`, line: 1, column: 1 },
    });
    assert.deepEqual(
      r.nics.map((n) => [n.slot, n.interfaceName]),
      [["net0", "eth0"]],
    );
    assert.equal(r.cluster, "pve-lab");
  });

  test("db-01: virtual disks in order, image import, trunked VLANs, custom field overrides", async () => {
    const id = nb.admin.idOf("virtualization/virtual-machines", { name: "db-01" });
    nb.admin.update("virtualization/virtual-machines", id, {
      custom_fields: { proxmox_vmid: 4321, proxmox_node: "pve2", proxmox_storage: "ceph" },
    });
    const r = await mapped("db-01");
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(r.spec.kind === "vm");
    assert.equal(r.spec.vmid, 4321);
    assert.equal(r.spec.node, "pve2");
    assert.deepEqual(r.spec.disks, {
      scsi0: { storage: "ceph", sizeBytes: 32000 * 2 ** 20, importFrom: "local:import/noble.qcow2", options: {} },
      scsi1: { storage: "ceph", sizeBytes: 100000 * 2 ** 20, options: {} },
    });
    assert.deepEqual(r.spec.nics, {
      net0: { model: "virtio", bridge: "vmbr0", tag: 20 },
      net1: { model: "virtio", bridge: "vmbr0", tag: 20, trunks: "30" },
    });
    assert.deepEqual(r.spec.agent, { enabled: true });
    assert.deepEqual(r.spec.cdroms, {});
  });

  test("a MAC already recorded in NetBox is kept on the NIC", async () => {
    const vmId = nb.admin.idOf("virtualization/virtual-machines", { name: "web-02" });
    const ifaceId = nb.admin.idOf("virtualization/interfaces", { virtual_machine_id: String(vmId) });
    const mac = nb.admin.create("dcim/mac-addresses", {
      mac_address: "bc:24:11:12:34:56",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: ifaceId,
    });
    nb.admin.update("virtualization/interfaces", ifaceId, { primary_mac_address: mac.id });
    const r = await mapped("web-02");
    assert.ok(r.ok);
    assert.ok(r.spec.kind === "vm");
    assert.equal(r.spec.nics.net0?.macaddr, "BC:24:11:12:34:56");
  });

  test("bad records: each gets its own clear error and no spec", async () => {
    const site = nb.admin.idOf("dcim/sites", { slug: "lab" });
    const cluster = nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
    const type = nb.admin.idOf("virtualization/cluster-types", { slug: "proxmox-ve" });
    const other = nb.admin.create("virtualization/clusters", { name: "vmware-old", type });
    const bsd = nb.admin.create("dcim/platforms", { name: "FreeBSD", slug: "freebsd" });
    const debian = nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
    const base = { status: "planned", platform: debian, vcpus: 1, memory: 1024, disk: 8000 };
    nb.admin.create("virtualization/virtual-machines", { ...base, name: "no-cluster", site });
    nb.admin.create("virtualization/virtual-machines", { ...base, name: "wrong-cluster", cluster: other.id });
    nb.admin.create("virtualization/virtual-machines", { ...base, name: "bsd-01", cluster, platform: bsd.id });
    nb.admin.create("virtualization/virtual-machines", { ...base, name: "sizes-01", cluster, vcpus: 1.5, memory: 8, disk: 0 });
    const zeroDisk = nb.admin.create("virtualization/virtual-machines", { ...base, name: "sizes-02", cluster, disk: null, memory: null });
    nb.admin.create("virtualization/virtual-disks", { virtual_machine: zeroDisk.id, name: "root", size: 0 });
    nb.admin.create("virtualization/virtual-machines", { ...base, name: "bad_name", cluster, custom_fields: { proxmox_vmid: 42 } });

    const errorsOf = async (name: string) => {
      const r = await mapped(name);
      assert.equal(r.ok, false, `${name} should not map`);
      return r.ok ? [] : r.errors;
    };
    assert.deepEqual(await errorsOf("no-cluster"), ["has no cluster; assign it to one of the configured clusters (pve-lab)"]);
    assert.deepEqual(await errorsOf("wrong-cluster"), [
      "cluster `vmware-old` is not configured under `clusters:` in netbox.yaml (configured: pve-lab)",
    ]);
    assert.deepEqual(await errorsOf("bsd-01"), [
      "platform `freebsd` is not configured under `platforms:` in netbox.yaml (configured: debian-13, ubuntu-24-04, windows-2022)",
    ]);
    assert.deepEqual(await errorsOf("sizes-01"), [
      "vcpus 1.5 is not a whole number of at least 1 (Proxmox VE allocates whole cores)",
      "memory 8 MiB is below the 16 MiB Proxmox VE needs",
      "disk has size 0 MiB; a disk needs a positive size",
    ]);
    assert.deepEqual(await errorsOf("sizes-02"), [
      "memory is not set; set it in NetBox or `defaults.memory`",
      "virtual disk `root` has size 0 MiB; a disk needs a positive size",
    ]);
    assert.deepEqual(await errorsOf("bad_name"), [
      "name `bad_name` is not a valid Proxmox VE VM name (letters, digits and hyphens, dot-separated, at most 63 characters)",
      "custom field proxmox_vmid is 42; a Proxmox VE vmid is a whole number from 100 to 999999999",
    ]);
  });
});

describe("NetBox config", () => {
  test("problems are reported with file, line and column, all at once", () => {
    const text = "clusters:\n  pve-lab:\n    connection: nope\n    nodes: pve1\nplatforms:\n  deb:\n    ostype: linux\n";
    assert.throws(
      () => parseNetboxConfig(text, "nb.yaml"),
      (err: unknown) => {
        assert.ok(err instanceof NetboxConfigError);
        const msg = err.userMessage();
        assert.match(msg, /^the NetBox config is invalid \(2 problems\); nothing was read from NetBox or sent to a cluster/);
        assert.match(msg, /nb\.yaml:4:5: clusters\.pve-lab\.nodes: .*nodes/);
        assert.match(msg, /nb\.yaml:7:13: platforms\.deb\.ostype: /);
        return true;
      },
    );
    assert.throws(
      () => parseNetboxConfig("clusters:\n  a:\n    connection: lab\n", "nb.yaml"),
      /nb\.yaml:3:17: clusters\.a\.connection: connection `lab` is not defined under `connections:`/,
    );
  });

  test("defaults", () => {
    const c = parseNetboxConfig("clusters: {}\n", "x.yaml");
    assert.deepEqual(c.select.status, ["planned"]);
    assert.equal(c.writeBack.onSuccess, "staged");
    assert.equal(c.writeBack.onFailure, "planned");
    assert.equal(c.customFields.vmid, "proxmox_vmid");
    assert.equal(c.decommission.final, "offline");
    assert.equal(c.netbox.tokenEnv, "NETBOX_TOKEN");
  });
});
