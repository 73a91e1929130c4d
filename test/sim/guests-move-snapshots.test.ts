// Moving a VM disk that snapshots still name (qemu-server move_disk): the source volume has to
// stay, so delete=1 is refused at once, a plain move warns and keeps the source as unusedN,
// and handing the disk to another VM is refused. Destroying a container template whose base
// volume linked clones use.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("move_disk and snapshots", () => {
  it("refuses delete=1; a plain move warns, keeps the source as unusedN and the snapshot on it", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "before" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: "shared", delete: 1 }),
      500,
      "you can't move a disk with snapshots and delete the source",
    );
    const upid = await h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: "shared" });
    const task = h.task(upid);
    assert.equal(task.exitstatus, "WARNINGS: 1");
    assert.ok(task.log.includes("WARN: moving disk with snapshots, snapshots will not be moved!"));
    const cfg = await h.config(100);
    assert.match(String(cfg.scsi0), /^shared:100\/vm-100-disk-\d\.raw,/);
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-0");
    const section = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot/before/config")) as Record<string, unknown>;
    assert.match(String(section.scsi0), /^local-lvm:vm-100-disk-0,/);
  });

  it("refuses to hand a snapshotted disk to another VM", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:1" });
    await h.createVm(101);
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "before" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", "target-vmid": 101 }),
      500,
      "Can't move disk used by a snapshot to another VM",
    );
    await h.ok("DELETE", "/nodes/pve1/qemu/100/snapshot/before");
    await h.ok("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", "target-vmid": 101 });
    assert.ok((await h.config(101)).scsi1);
  });
});

describe("destroying a template that linked clones use", () => {
  it("a CT template's destroy task fails on the base volume (vdisk_free's words) and the template stays", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "local-lvm:4",
    });
    await h.call("POST", "/nodes/pve1/lxc/200/template");
    await h.ok("POST", "/nodes/pve1/lxc/200/clone", { newid: 201 });
    const upid = await h.call("DELETE", "/nodes/pve1/lxc/200");
    assert.equal(h.task(upid).exitstatus, "base volume 'base-200-disk-0' is still in use by linked clones");
    assert.ok(h.model.guest(200));
    assert.ok(h.model.state.volumes.some((v) => v.volid === "local-lvm:base-200-disk-0"));
    await h.ok("DELETE", "/nodes/pve1/lxc/201");
    await h.ok("DELETE", "/nodes/pve1/lxc/200");
  });
});
