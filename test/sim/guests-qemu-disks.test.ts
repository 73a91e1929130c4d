import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("QEMU disks: resize, move_disk, unlink", () => {
  it("resize grows (absolute or +delta) and refuses to shrink", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", ide2: "local:iso/debian-13-netinst.iso,media=cdrom" });
    const upid = await h.ok("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+2G" });
    assert.match(upid, /:resize:100:/);
    assert.equal((await h.config(100)).scsi0, "local-lvm:vm-100-disk-0,size=6G");
    await h.ok("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "10G" });
    assert.equal((await h.config(100)).scsi0, "local-lvm:vm-100-disk-0,size=10G");
    assert.equal(h.model.state.volumes.find((v) => v.volid === "local-lvm:vm-100-disk-0")?.size, 10 * 1024 ** 3);
    const shrink = await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "8G" });
    assert.equal(h.task(shrink).exitstatus, "shrinking disks is not supported");
    const cd = await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "ide2", size: "+1G" });
    assert.equal(h.task(cd).exitstatus, "you can't resize a cdrom");
    const missing = await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi3", size: "+1G" });
    assert.equal(h.task(missing).exitstatus, "disk 'scsi3' does not exist");
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "big" }), 400, "Parameter verification failed.");
  });

  it("resize honours the digest", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    const upid = await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+1G", digest: "0".repeat(40) });
    assert.equal(h.task(upid).exitstatus, "checksum mismatch (file change by other user?)");
  });

  it("move_disk copies to another storage; the source becomes unusedN unless delete=1", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:1" });
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: "shared" });
    assert.match(upid, /:qmmove:100:/);
    let cfg = await h.config(100);
    // no `format`: resolve_dst_disk_format keeps the source's raw, which NFS supports
    assert.equal(cfg.scsi0, "shared:100/vm-100-disk-0.raw,size=4G");
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-0");
    await h.ok("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", storage: "shared", format: "raw", delete: 1 });
    cfg = await h.config(100);
    assert.equal(cfg.scsi1, "shared:100/vm-100-disk-1.raw,size=1G");
    assert.equal(cfg.unused1, undefined);
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-100-disk-1"),
      false,
    );
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", storage: "shared", format: "raw" }),
      500,
      "you can't move to the same storage with same format",
    );
  });

  it("move_disk reassigns a disk to another VM on the same node", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:2" });
    await h.createVm(101, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", "target-vmid": 101, "target-disk": "scsi3" });
    assert.equal((await h.config(100)).scsi1, undefined);
    assert.equal((await h.config(101)).scsi3, "local-lvm:vm-101-disk-1,size=2G");
  });

  it("unlink detaches (→ unusedN) or, with force, destroys the volume", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:1", scsi2: "local-lvm:1" });
    assert.equal(await h.call("PUT", "/nodes/pve1/qemu/100/unlink", { idlist: "scsi1", force: 0 }), null);
    assert.equal((await h.config(100)).unused0, "local-lvm:vm-100-disk-1");
    await h.call("PUT", "/nodes/pve1/qemu/100/unlink", { idlist: "scsi2,unused0", force: 1 });
    const cfg = await h.config(100);
    assert.equal(cfg.scsi2, undefined);
    assert.equal(cfg.unused0, undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100).map((v) => v.volid),
      ["local-lvm:vm-100-disk-0"],
    );
  });

  it("a disk removed from a running VM with hotplug=0 stays pending", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:1", hotplug: "0", start: 1 });
    await h.call("PUT", "/nodes/pve1/qemu/100/unlink", { idlist: "scsi1" });
    const pending = (await h.call("GET", "/nodes/pve1/qemu/100/pending")) as Array<Record<string, unknown>>;
    assert.equal(pending.find((p) => p.key === "scsi1")?.delete, 1);
  });
});

describe("QEMU clone and template", () => {
  it("full clone copies disks to new volumes and gives every NIC a new MAC", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", net0: "virtio,bridge=vmbr0", net1: "e1000,bridge=vmbr1" });
    const src = await h.config(100);
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/clone", { newid: 200, name: "copy" });
    assert.match(upid, /:qmclone:100:/);
    const cfg = await h.config(200);
    assert.equal(cfg.name, "copy");
    assert.equal(cfg.scsi0, "local-lvm:vm-200-disk-0,size=4G");
    assert.notEqual(cfg.net0, src.net0);
    assert.match(String(cfg.net0), /^virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr0$/);
    assert.match(String(cfg.net1), /^e1000=BC:24:11:/);
    assert.notEqual(cfg.smbios1, src.smbios1);
  });

  it("default clone name, lock: clone while copying, vmid collision", async () => {
    const h = new Harness({ deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:1" });
    await h.runTasks();
    await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 });
    assert.equal((await h.config(101)).lock, "clone");
    await h.runTasks();
    assert.equal((await h.config(101)).name, "Copy-of-VM-100");
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 }), 500, "unable to create VM 101: config file already exists");
  });

  it("template renames disks to base-*; a linked clone references the base volume", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/template");
    const tpl = await h.config(100);
    assert.equal(tpl.template, 1);
    assert.equal(tpl.scsi0, "local-lvm:base-100-disk-0,size=4G");
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/template"), 500, "you can't convert a template to a template");
    await h.ok("POST", "/nodes/pve1/qemu/100/clone", { newid: 101, name: "linked" });
    assert.equal((await h.config(101)).scsi0, "local-lvm:base-100-disk-0/vm-101-disk-0,size=4G");
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 102, full: 0, storage: "shared" }),
      500,
      "parameter 'storage' not allowed for linked clones",
    );
    const blocked = await h.call("DELETE", "/nodes/pve1/qemu/100");
    assert.equal(h.task(blocked).exitstatus, "base volume 'local-lvm:base-100-disk-0' is still in use by linked cloned");
    assert.ok(h.model.guest(100), "nothing was destroyed");
    await h.ok("POST", "/nodes/pve1/qemu/100/clone", { newid: 103, full: 1, storage: "shared", target: "pve2" });
    assert.equal((await h.config(103, "pve2")).scsi0, "shared:103/vm-103-disk-0.raw,size=4G");
  });

  it("refuses a clone of local disks to another node", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await rejects(
      h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101, target: "pve2" }),
      500,
      "can't clone VM to node 'pve2' (VM uses local storage)",
    );
  });

  it("template refuses running VMs and VMs with snapshots", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1 });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/template"), 500, "you can't convert a VM to template if VM is running");
    await h.createVm(101);
    await h.ok("POST", "/nodes/pve1/qemu/101/snapshot", { snapname: "s1" });
    await rejects(h.call("POST", "/nodes/pve1/qemu/101/template"), 500, "unable to create template, because VM contains snapshots");
  });
});
