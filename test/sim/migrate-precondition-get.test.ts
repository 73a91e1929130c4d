// GET …/migrate in PVE 9.1's shapes: a VM's node-local volumes with foreach_volid's attributes,
// every other node under not_allowed_nodes (empty when allowed), local and mapped resources; a
// container's allowed and not-allowed nodes. Plus POST migrate's storage map (targetstorage).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ClusterConfig } from "../../src/sim/cluster/index.js";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const config: ClusterConfig = {
  nodes: 3,
  storages: [
    { id: "local", type: "dir", content: ["iso", "vztmpl", "backup", "images"], path: "/var/lib/vz" },
    { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
    { id: "pair", type: "nfs", content: ["images", "rootdir"], shared: true, nodes: ["pve1", "pve2"] },
    { id: "backups", type: "nfs", content: ["backup"], shared: true },
  ],
};

describe("GET …/migrate", () => {
  it("a VM: local disks with their attributes, nodes with what stands in the way, local and mapped resources", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "local-lvm:1", scsi1: "pair:1", usb0: "host=1234:5678", serial0: "socket", hostpci0: "mapping=gpu" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "scsi0" });
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    const pre = (await h.call("GET", "/nodes/pve1/qemu/100/migrate")) as Row;
    assert.equal(pre.running, 1);
    assert.deepEqual(pre.allowed_nodes, []);
    assert.deepEqual(pre.not_allowed_nodes, {
      pve2: { "unavailable-resources": ["hostpci0"] },
      pve3: { unavailable_storages: ["pair"], "unavailable-resources": ["hostpci0"] },
    });
    // a socket serial port is no local resource; PVE lists the others in hash order
    assert.deepEqual([...(pre.local_resources as string[])].sort(), ["hostpci0", "usb0"]);
    assert.deepEqual(pre["mapped-resources"], ["hostpci0"]);
    assert.deepEqual(pre["mapped-resource-info"], { hostpci0: { name: "gpu" } });
    assert.equal(pre["has-dbus-vmstate"], 1);
    const disks = pre.local_disks as Row[];
    assert.equal(disks.length, 1);
    assert.deepEqual(
      { ...disks[0], size: undefined },
      {
        volid: "local-lvm:vm-100-disk-0",
        cdrom: 0,
        is_cloudinit: 0,
        replicate: 1,
        shared: 0,
        is_unused: 1,
        is_attached: 0,
        is_vmstate: 0,
        is_tpmstate: 0,
        size: undefined,
      },
    );
    h.model.setGuestLock(100, "backup");
    await rejects(h.call("GET", "/nodes/pve1/qemu/100/migrate"), 500, "VM is locked (backup)");
  });

  it("a stopped VM on node-local storage may go anywhere; a container lists allowed-nodes", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "local-lvm:1" });
    const pre = (await h.call("GET", "/nodes/pve1/qemu/100/migrate", { target: "pve2" })) as Row;
    assert.deepEqual(pre.allowed_nodes, ["pve2", "pve3"]);
    assert.deepEqual(pre.not_allowed_nodes, { pve2: {}, pve3: {} });
    assert.deepEqual(
      (pre.local_disks as Row[]).map((d) => [d.volid, d.is_attached, d.drivename]),
      [["local-lvm:vm-100-disk-0", 1, "scsi0"]],
    );
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:1" });
    assert.deepEqual(await h.call("GET", "/nodes/pve1/lxc/200/migrate"), {
      running: 0,
      "allowed-nodes": ["pve2", "pve3"],
      "not-allowed-nodes": {},
    });
  });
});

describe("POST …/migrate with devices", () => {
  it("local devices end the task unless force=1 (root only); a mapped device is missing on every node", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "pair:1", usb0: "host=1234:5678" });
    const refused = h.task(await h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" }));
    assert.equal(refused.exitstatus, "migration aborted");
    assert.ok(
      refused.log.includes("ERROR: migration aborted (duration 00:00:00): can't migrate VM which uses local devices: usb0"),
      refused.log.join("\n"),
    );
    h.userid = "admin@pve";
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", force: 1 }), 400, "Parameter verification failed.", {
      force: "Only root may use this option.",
    });
    h.userid = "root@pam";
    await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", force: 1 });
    await h.createVm(101, { scsi0: "pair:1", hostpci0: "mapping=gpu" });
    const mapped = h.task(await h.call("POST", "/nodes/pve1/qemu/101/migrate", { target: "pve2", force: 1 }));
    assert.ok(
      mapped.log.includes("ERROR: migration aborted (duration 00:00:00): can't migrate to 'pve2': missing mapped devices hostpci0"),
      mapped.log.join("\n"),
    );
  });
});

describe("POST …/migrate with a storage map", () => {
  it("targetstorage moves local disks onto the mapped storage; bad maps and storages are refused", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "local-lvm:1" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", targetstorage: "1,local" }),
      400,
      "Parameter verification failed.",
      {
        targetstorage: "failed to parse storage map: identity mapping cannot be combined with other mappings\n",
      },
    );
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", targetstorage: "backups" }),
      500,
      "storage 'backups' does not support vm images",
    );
    await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", targetstorage: "local-lvm:local" });
    assert.equal(h.model.guest(100)?.node, "pve2");
    assert.match(String((await h.config(100, "pve2")).scsi0), /^local:vm-100-disk-0,/);
  });
});
