// Which migrate preconditions answer the request (qemu-server's / pve-container's migrate_vm
// API) and which end the task (QemuMigrate / LXC::Migrate prepare and scan_local_volumes).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ClusterConfig } from "../../src/sim/cluster/index.js";
import { Harness, rejects } from "./guests-harness.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const config: ClusterConfig = {
  nodes: 3,
  storages: [
    { id: "local", type: "dir", content: ["iso", "vztmpl", "backup"], path: "/var/lib/vz" },
    { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
    { id: "shared", type: "nfs", content: ["images", "rootdir", "backup"], shared: true },
    { id: "pair", type: "nfs", content: ["images", "rootdir"], shared: true, nodes: ["pve1", "pve2"] },
  ],
};

/** A task that ended as a failed migration, with its log. */
function aborted(h: Harness, upid: unknown, reason: string): void {
  const task = h.task(upid);
  assert.equal(task.exitstatus, "migration aborted", task.log.join("\n"));
  assert.ok(task.log.includes(`ERROR: migration aborted (duration 00:00:00): ${reason}`), task.log.join("\n"));
}

describe("migrate preconditions of a VM", () => {
  it("answer the request: unknown node, lock, a config volume's storage missing on the target", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "pair:1" });
    const tasks = h.tasks.length;
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve9" }), 500, "no such cluster node 'pve9'");
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve3" }),
      500,
      "storage 'pair' is not available on node 'pve3'",
    );
    h.model.setGuestLock(100, "backup");
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" }), 500, "VM is locked (backup)");
    assert.equal(h.tasks.length, tasks, "no task started");
    assert.equal((await h.config(100)).lock, "backup");
  });

  it("end the task: an offline target, a snapshot's volume missing on the target (local disks of a running VM: guests-migrate)", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "shared:1" });
    h.model.node("pve3")!.online = false;
    const offline = await h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve3" });
    aborted(h, offline, "Can't connect to destination address using public key");
    assert.equal((await h.config(100)).lock, undefined);
    assert.equal(h.model.guest(100)?.node, "pve1");
    await h.createVm(101, { scsi0: "pair:1,format=qcow2" });
    await h.ok("POST", "/nodes/pve1/qemu/101/snapshot", { snapname: "s1" });
    await h.call("PUT", "/nodes/pve1/qemu/101/config", { scsi0: "shared:1" });
    h.model.node("pve3")!.online = true;
    const snap = await h.call("POST", "/nodes/pve1/qemu/101/migrate", { target: "pve3" });
    aborted(h, snap, "storage 'pair' is not available on node 'pve3'");
  });
});

describe("migrate preconditions of a container", () => {
  it("a lock, a storage missing on the target and online end the task; a running CT without online or restart answers", async () => {
    const h = new Harness({ config });
    await h.ok("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "pair:1" });
    h.model.setGuestLock(200, "backup");
    const locked = await h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve2" });
    aborted(h, locked, "CT is locked (backup)");
    assert.equal((await h.config(200, "pve1", "lxc")).lock, "backup", "the lock it had stays");
    h.model.setGuestLock(200, undefined);
    const missing = await h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve3" });
    aborted(h, missing, "storage 'pair' is not available on node 'pve3'");
    await h.ok("POST", "/nodes/pve1/lxc/200/status/start");
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve2" }),
      500,
      "can't migrate running container without --online or --restart",
    );
    const online = await h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve2", online: 1, restart: 1 });
    aborted(h, online, "lxc live migration is currently not implemented");
    assert.equal(h.model.guest(200)?.node, "pve1");
    await h.ok("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve2", restart: 1 });
    assert.equal(h.model.guest(200)?.node, "pve2");
  });
});
