import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

async function status(h: Harness, vmid = 100): Promise<Record<string, unknown>> {
  return (await h.call("GET", `/nodes/pve1/qemu/${vmid}/status/current`)) as Record<string, unknown>;
}

describe("QEMU power operations", () => {
  it("start runs the VM; a second start fails its task with 'already running'", async () => {
    const h = new Harness();
    await h.createVm(100);
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    assert.match(upid, /:qmstart:100:root@pam:$/);
    const s = await status(h);
    assert.equal(s.status, "running");
    assert.equal(s.qmpstatus, "running");
    assert.equal(typeof s.pid, "number");
    h.clock += 120;
    assert.equal((await status(h)).uptime, 120);
    const again = await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(h.task(again).exitstatus, "VM 100 already running");
  });

  it("stop and shutdown of a stopped VM are successful no-ops", async () => {
    const h = new Harness();
    await h.createVm(100);
    await h.ok("POST", "/nodes/pve1/qemu/100/status/stop");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/shutdown");
    assert.equal((await status(h)).status, "stopped");
  });

  it("reboot, reset, suspend and resume need a running VM", async () => {
    const h = new Harness();
    await h.createVm(100);
    for (const op of ["reboot", "reset", "suspend", "resume"]) {
      await rejects(h.call("POST", `/nodes/pve1/qemu/100/status/${op}`), 500, "VM 100 not running");
    }
  });

  it("suspend pauses; shutdown of a paused VM is refused unless forceStop", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/status/suspend");
    assert.equal((await status(h)).qmpstatus, "paused");
    await rejects(h.call("POST", "/nodes/pve1/qemu/100/status/shutdown"), 500, "VM is paused - cannot shutdown");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/resume");
    assert.equal((await status(h)).qmpstatus, "running");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/shutdown", { forceStop: 1, timeout: 30 });
    assert.equal((await status(h)).status, "stopped");
  });

  it("freeze=1 starts into prelaunch until resumed", async () => {
    const h = new Harness();
    await h.createVm(100, { freeze: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal((await status(h)).qmpstatus, "prelaunch");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/resume");
    assert.equal((await status(h)).qmpstatus, "running");
  });

  it("a locked VM cannot start; templates cannot start", async () => {
    const h = new Harness();
    await h.createVm(100);
    h.model.setGuestLock(100, "backup");
    const upid = await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(h.task(upid).exitstatus, "VM is locked (backup)");
    h.model.setGuestLock(100, undefined);
    await h.ok("POST", "/nodes/pve1/qemu/100/template");
    const t = await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(h.task(t).exitstatus, "you can't start a vm if it's a template");
  });

  it("start fails when a NIC's bridge does not exist on the node", async () => {
    const h = new Harness();
    await h.createVm(100, { net0: "virtio,bridge=vmbr7" });
    const upid = await h.call("POST", "/nodes/pve1/qemu/100/status/start");
    assert.equal(h.task(upid).exitstatus, "bridge 'vmbr7' does not exist");
  });

  it("lists VMs per node with PVE's fields", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:32", memory: 4096, start: 1 });
    await h.createVm(101, {}, "pve2");
    const list = (await h.call("GET", "/nodes/pve1/qemu")) as Array<Record<string, unknown>>;
    assert.equal(list.length, 1);
    const vm = list[0] as Record<string, unknown>;
    assert.equal(vm.vmid, 100);
    assert.equal(vm.name, "vm100");
    assert.equal(vm.maxmem, 4096 * 1024 * 1024);
    assert.equal(vm.maxdisk, 32 * 1024 ** 3);
    assert.equal(vm.cpus, 2);
    assert.equal(vm.status, "running");
    for (const key of ["cpu", "mem", "netin", "netout", "diskread", "diskwrite", "uptime", "disk"]) {
      assert.equal(typeof vm[key], "number", key);
    }
  });
});

describe("QEMU destroy", () => {
  it("removes the config and every referenced volume", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4", scsi1: "local-lvm:2", ide2: "local:iso/debian-13-netinst.iso,media=cdrom" });
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { delete: "scsi1" });
    const upid = await h.ok("DELETE", "/nodes/pve1/qemu/100");
    assert.match(upid, /:qmdestroy:100:/);
    assert.equal(h.model.guest(100), undefined);
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100),
      [],
    );
    assert.ok(
      h.model.state.volumes.some((v) => v.volid === "local:iso/debian-13-netinst.iso"),
      "ISO is kept",
    );
  });

  it("keeps unreferenced volumes unless destroy-unreferenced-disks is set", async () => {
    const h = new Harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.call("POST", "/nodes/pve1/storage/local-lvm/content", { vmid: 100, filename: "vm-100-disk-7", size: "1G" });
    await h.ok("DELETE", "/nodes/pve1/qemu/100");
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100).map((v) => v.volid),
      ["local-lvm:vm-100-disk-7"],
    );
    await h.createVm(100, {});
    await h.ok("DELETE", "/nodes/pve1/qemu/100", { "destroy-unreferenced-disks": 1 });
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100),
      [],
    );
  });

  it("refuses running and protected VMs with PVE's messages", async () => {
    const h = new Harness();
    await h.createVm(100, { start: 1 });
    await rejects(h.call("DELETE", "/nodes/pve1/qemu/100"), 500, "VM 100 is running - destroy failed");
    await h.createVm(101, { protection: 1 });
    await rejects(h.call("DELETE", "/nodes/pve1/qemu/101"), 500, "can't remove VM 101 - protection mode enabled");
    await rejects(h.call("DELETE", "/nodes/pve1/qemu/999"), 500, "Configuration file 'nodes/pve1/qemu-server/999.conf' does not exist");
  });

  it("purge removes the vmid from backup jobs and pools", async () => {
    const h = new Harness();
    await h.call("POST", "/pools", { poolid: "p1" });
    await h.createVm(100, { pool: "p1" });
    await h.createVm(101);
    await h.call("POST", "/cluster/backup", { id: "nightly", vmid: "100,101", schedule: "21:00", storage: "local" });
    await h.ok("DELETE", "/nodes/pve1/qemu/100", { purge: 1 });
    const job = (await h.call("GET", "/cluster/backup/nightly")) as Record<string, unknown>;
    assert.equal(job.vmid, "101");
    const pool = (await h.call("GET", "/pools/p1")) as { members: unknown[] };
    assert.deepEqual(pool.members, []);
  });
});
