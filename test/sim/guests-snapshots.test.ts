import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

describe("snapshots", () => {
  it("lists snapshots plus the synthetic 'current' entry and tracks parents", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s1", description: "first" });
    h.clock += 60;
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s2" });
    assert.match(upid, /:qmsnapshot:100:/);
    const list = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot")) as Row[];
    assert.deepEqual(
      list.map((s) => [s.name, s.parent, s.vmstate, s.description]),
      [
        ["s1", undefined, 0, "first"],
        ["s2", "s1", 0, ""],
        ["current", "s2", undefined, "You are here!"],
      ],
    );
    const current = list.at(-1) as Row;
    assert.equal(current.running, 0);
    assert.equal(current.digest, (await h.config(100)).digest);
    assert.equal((await h.config(100)).parent, "s2");
  });

  it("refuses reserved and duplicate names; a lock fails the task", async () => {
    const h = new Harness();
    await h.createVm(100);
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "current" }),
      500,
      "unable to use snapshot name 'current' (reserved name)",
    );
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_a" });
    const dup = await h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_a" });
    assert.equal(h.task(dup).exitstatus, "snapshot name 'snap_a' already used");
    h.model.setGuestLock(100, "backup");
    const locked = await h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_b" });
    assert.equal(h.task(locked).exitstatus, "VM is locked (backup)");
    assert.equal((await h.config(100)).lock, "backup");
  });

  it("holds `lock: snapshot` while the task runs", async () => {
    const h = new Harness({ deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100 });
    await h.runTasks();
    await h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_x" });
    assert.equal((await h.config(100)).lock, "snapshot");
    await h.runTasks();
    assert.equal((await h.config(100)).lock, undefined);
  });

  it("vmstate is kept only for a running VM; rollback to it starts the VM", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "live", vmstate: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/status/stop");
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/live/rollback");
    assert.match(upid, /:qmrollback:100:/);
    const status = (await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row;
    assert.equal(status.status, "running");
    const list = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot")) as Row[];
    assert.equal(list[0]?.vmstate, 1);
  });

  it("rollback restores the config and disk size; a disk added later becomes unusedN", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", cores: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "base" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 8, scsi1: "local-lvm:1" });
    await h.ok("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+4G" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/base/rollback");
    const cfg = await h.config(100);
    assert.equal(cfg.cores, 1);
    assert.equal(cfg.scsi0, "local-lvm:vm-100-disk-0,size=4G");
    assert.equal(cfg.scsi1, undefined);
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-1");
    assert.equal(cfg.parent, "base");
    assert.equal(h.model.state.volumes.find((v) => v.volid === "local-lvm:vm-100-disk-0")?.size, 4 * 1024 ** 3);
  });

  it("delete re-links children; snapshot config and description update", async () => {
    const h = new Harness();
    await h.createVm(100, { memory: 1024 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_a" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "snap_b" });
    const snapCfg = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot/snap_a/config")) as Row;
    assert.equal(snapCfg.memory, "1024");
    assert.equal(typeof snapCfg.snaptime, "number");
    await h.call("PUT", "/nodes/pve1/qemu/100/snapshot/snap_b/config", { description: "second" });
    const upid = await h.ok("DELETE", "/nodes/pve1/qemu/100/snapshot/snap_a");
    assert.match(upid, /:qmdelsnapshot:100:/);
    const list = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot")) as Row[];
    assert.deepEqual(
      list.map((s) => [s.name, s.parent, s.description]),
      [
        ["snap_b", undefined, "second"],
        ["current", "snap_b", "You are here!"],
      ],
    );
    const missing = await h.call("DELETE", "/nodes/pve1/qemu/100/snapshot/snap_a");
    assert.equal(h.task(missing).exitstatus, "snapshot 'snap_a' does not exist");
    const rollback = await h.call("POST", "/nodes/pve1/qemu/100/snapshot/snap_a/rollback");
    assert.equal(h.task(rollback).exitstatus, "snapshot 'snap_a' does not exist");
    assert.equal((await h.config(100)).lock, undefined);
  });
});

describe("feature checks", () => {
  it("snapshot and linked-clone features follow storage and format", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.createVm(101, { scsi0: "shared:4,format=raw" });
    const feat = async (vmid: number, feature: string) =>
      (await h.call("GET", `/nodes/pve1/qemu/${vmid}/feature`, { feature })) as { hasFeature: number; nodes: string[] };
    assert.equal((await feat(100, "snapshot")).hasFeature, 1);
    assert.equal((await feat(101, "snapshot")).hasFeature, 0, "raw files take no snapshots");
    const refused = await h.call("POST", "/nodes/pve1/qemu/101/snapshot", { snapname: "nope" });
    assert.equal(h.task(refused).exitstatus, "snapshot feature is not available");
    assert.equal((await feat(100, "clone")).hasFeature, 0, "no linked clone of a plain VM");
    assert.equal((await feat(100, "copy")).hasFeature, 1);
    assert.deepEqual((await feat(100, "copy")).nodes, ["pve1"]);
    assert.deepEqual((await feat(101, "copy")).nodes, ["pve1", "pve2", "pve3"]);
    await h.ok("POST", "/nodes/pve1/qemu/100/template");
    assert.equal((await feat(100, "clone")).hasFeature, 1);
  });
});
