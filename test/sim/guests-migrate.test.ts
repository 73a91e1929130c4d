import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

describe("migration", () => {
  it("moves a stopped VM and its local disks to the target node", async () => {
    const h = new Harness({ deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4", scsi1: "shared:1" });
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" });
    assert.match(String(upid), /^UPID:pve1:.*:qmigrate:100:/);
    assert.equal((await h.config(100)).lock, "migrate");
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    assert.equal((await h.config(100, "pve2")).lock, undefined);
    const on2 = (await h.call("GET", "/nodes/pve2/storage/local-lvm/content")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      on2.map((c) => c.volid),
      ["local-lvm:vm-100-disk-0"],
    );
    const res = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Array<Record<string, unknown>>;
    assert.equal(res[0]?.node, "pve2");
  });

  it("refuses what PVE refuses", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", start: 1 });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve1" }), 400, "Parameter verification failed.", {
      target: "target is local node.",
    });
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" }), 500, "can't migrate running VM without --online");
    // QemuMigrate's scan_local_volumes, in the task: a warning for the disk, then the abort
    const live = await h.call("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", online: 1 });
    assert.equal(h.task(live).exitstatus, "migration aborted");
    assert.ok(
      h
        .task(live)
        .log.includes(
          "can't migrate local disk 'local-lvm:vm-100-disk-0': can't live migrate attached local disks without with-local-disks option",
        ),
    );
    assert.equal((await h.config(100)).lock, undefined);
    await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2", online: 1, "with-local-disks": 1 });
    const status = (await h.call("GET", "/nodes/pve2/qemu/100/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
    // QemuMigrate's scan_local_volumes: a CD-ROM image on a node-local storage aborts the task
    await h.createVm(101, { ide2: "local:iso/debian-13-netinst.iso,media=cdrom" });
    const iso = await h.call("POST", "/nodes/pve1/qemu/101/migrate", { target: "pve3" });
    assert.equal(h.task(iso).exitstatus, "migration aborted");
    assert.ok(h.task(iso).log.includes("can't migrate local disk 'local:iso/debian-13-netinst.iso': local cdrom image"));
    assert.equal((await h.config(101)).lock, undefined);
    // the host's own drive: "can't migrate local cdrom drive"
    await h.createVm(102, { ide2: "cdrom,media=cdrom" });
    const host = await h.call("POST", "/nodes/pve1/qemu/102/migrate", { target: "pve3" });
    assert.equal(h.task(host).exitstatus, "migration aborted");
    assert.ok(h.task(host).log.includes("can't migrate local cdrom drive"));
  });

  it("moves a local cloud-init drive along (a generated disk, not a CD-ROM image), also live without with-local-disks", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "shared:4", ide2: "local-lvm:cloudinit", ciuser: "ops" });
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/migrate", { target: "pve2" });
    assert.ok(h.task(upid).log.includes("found generated disk 'local-lvm:vm-100-cloudinit' (in current VM config)"));
    assert.equal((await h.config(100, "pve2")).ide2, "local-lvm:vm-100-cloudinit,media=cdrom");
    const on2 = (await h.call("GET", "/nodes/pve2/storage/local-lvm/content")) as Array<Record<string, unknown>>;
    assert.deepEqual(
      on2.map((c) => c.volid),
      ["local-lvm:vm-100-cloudinit"],
    );
    await h.ok("POST", "/nodes/pve2/qemu/100/status/start");
    await h.ok("POST", "/nodes/pve2/qemu/100/migrate", { target: "pve3", online: 1 });
    const status = (await h.call("GET", "/nodes/pve3/qemu/100/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
  });

  it("restart-migrates a running container", async () => {
    const h = new Harness();
    await h.ok("POST", "/nodes/pve1/lxc", {
      vmid: 200,
      ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst",
      rootfs: "shared:2",
      start: 1,
    });
    await rejects(
      h.call("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve3" }),
      500,
      "can't migrate running container without --online or --restart",
    );
    assert.match(await h.ok("POST", "/nodes/pve1/lxc/200/migrate", { target: "pve3", restart: 1 }), /:vzmigrate:200:/);
    const status = (await h.call("GET", "/nodes/pve3/lxc/200/status/current")) as Record<string, unknown>;
    assert.equal(status.status, "running");
  });
});
