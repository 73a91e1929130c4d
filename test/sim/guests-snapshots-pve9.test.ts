// Snapshots as pve-guest-common's AbstractConfig and qemu-server/pve-container (PVE 9) run them:
// what a snapshot section holds, the RAM state volume, the order of refusals, ZFS rollbacks,
// rollback with `start`, and the space snapshots hold on their storage.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

type Row = Record<string, unknown>;
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

function harness(deferTasks = false): Harness {
  return new Harness({
    deferTasks,
    config: {
      nodes: ["pve1"],
      bridges: ["vmbr0"],
      storages: [
        { id: "local", type: "dir", content: "iso,vztmpl,backup,images" },
        { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
        { id: "tank", type: "zfspool", content: "images,rootdir" },
      ],
      content: [TEMPLATE],
    },
  });
}

const snap = (h: Harness, vmid: number, snapname: string, extra: Record<string, string | number> = {}, type = "qemu") =>
  h.call("POST", `/nodes/pve1/${type}/${vmid}/snapshot`, { snapname, ...extra });

async function used(h: Harness, storage: string): Promise<number> {
  return ((await h.call("GET", `/nodes/pve1/storage/${storage}/status`)) as { used: number }).used;
}

describe("snapshot sections (PVE 9)", () => {
  it("a section holds neither the guest's description nor its unusedN; rollback keeps both of the current config", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4", description: "before", unused0: "local-lvm:vm-100-disk-9" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s1", description: "the comment" });
    const section = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot/s1/config")) as Row;
    assert.equal(section.description, "the comment");
    assert.equal(section.unused0, undefined);
    assert.equal(section.vmstate, undefined, "no RAM saved, no vmstate key");
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { description: "after", cores: 4 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/s1/rollback");
    const cfg = await h.config(100);
    assert.equal(cfg.description, "after");
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-9");
    assert.equal(cfg.cores, 2);
    assert.equal(cfg.parent, "s1");
  });

  it("a RAM snapshot of a running VM saves vm-<vmid>-state-<name> (2 x memory + 500 MiB), freed on delete", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4", memory: 1024, start: 1 });
    const upid = await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "live", vmstate: 1 });
    assert.ok(h.task(upid).log.includes("saving VM state and RAM using storage 'local-lvm'"));
    const section = (await h.call("GET", "/nodes/pve1/qemu/100/snapshot/live/config")) as Row;
    assert.equal(section.vmstate, "local-lvm:vm-100-state-live");
    const state = h.model.state.volumes.find((v) => v.volid === "local-lvm:vm-100-state-live");
    assert.equal(state?.size, (1024 * 2 + 500) * MiB);
    await h.ok("DELETE", "/nodes/pve1/qemu/100/snapshot/live");
    assert.equal(
      h.model.state.volumes.some((v) => v.volid === "local-lvm:vm-100-state-live"),
      false,
    );
  });

  it("vmstatestorage chooses where RAM goes; destroying the VM frees the state volume too", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4", vmstatestorage: "local", start: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "ram", vmstate: 1 });
    assert.equal(((await h.call("GET", "/nodes/pve1/qemu/100/snapshot/ram/config")) as Row).vmstate, "local:100/vm-100-state-ram.raw");
    await h.ok("POST", "/nodes/pve1/qemu/100/status/stop");
    await h.ok("DELETE", "/nodes/pve1/qemu/100");
    assert.deepEqual(
      h.model.state.volumes.filter((v) => v.vmid === 100).map((v) => v.volid),
      [],
    );
  });
});

describe("snapshot refusals in PVE's order", () => {
  it("names follow pve-configid (a letter, then letters, digits, _ or -; 2 to 40 characters)", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    for (const bad of ["1st", "a", "with.dot", "x".repeat(41)]) {
      await assert.rejects(snap(h, 100, bad), (err: { status?: number; errors?: Record<string, string> }) => {
        assert.equal(err.status, 400);
        assert.ok(err.errors?.snapname, `${bad}: the error names snapname`);
        return true;
      });
    }
    assert.equal(h.task(await snap(h, 100, `A-b_${"x".repeat(36)}`)).exitstatus, "OK");
  });

  it("a template is refused before its lock is looked at; a missing snapshot before the lock", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s1" });
    h.model.setGuestLock(100, "backup");
    const missing = await h.call("DELETE", "/nodes/pve1/qemu/100/snapshot/nope");
    assert.equal(h.task(missing).exitstatus, "snapshot 'nope' does not exist");
    const locked = await h.call("DELETE", "/nodes/pve1/qemu/100/snapshot/s1");
    assert.equal(h.task(locked).exitstatus, "VM is locked (backup)");
    const rollback = await h.call("POST", "/nodes/pve1/qemu/100/snapshot/s1/rollback");
    assert.equal(h.task(rollback).exitstatus, "VM is locked (backup)");
    assert.equal((await h.config(100)).lock, "backup");

    await h.createVm(101, { scsi0: "local-lvm:4" });
    await h.ok("POST", "/nodes/pve1/qemu/101/template");
    h.model.setGuestLock(101, "backup");
    assert.equal(h.task(await snap(h, 101, "t1")).exitstatus, "you can't take a snapshot if it's a template");
  });

  it("ZFS rolls back only to the most recent snapshot of a dataset", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "tank:4" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "first" });
    h.clock += 10;
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "second" });
    const old = await h.call("POST", "/nodes/pve1/qemu/100/snapshot/first/rollback");
    assert.equal(h.task(old).exitstatus, "can't rollback, 'first' is not most recent snapshot on 'vm-100-disk-0'");
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/second/rollback");
    await h.ok("DELETE", "/nodes/pve1/qemu/100/snapshot/second");
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/first/rollback");
  });
});

describe("rollback and the guest's run state", () => {
  it("stops a running VM; `start` boots it again after the rollback; the task is timed as a rollback", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:4", start: 1 });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s1" });
    const plain = await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/s1/rollback");
    assert.equal(h.task(plain).options.kind, "rollback");
    const status = async () => ((await h.call("GET", "/nodes/pve1/qemu/100/status/current")) as Row).status;
    assert.equal(await status(), "stopped");
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot/s1/rollback", { start: 1 });
    assert.equal(await status(), "running");
  });

  it("containers: vzsnapshot/vzrollback/vzdelsnapshot, `lock: rollback` while it runs, `start` too", async () => {
    const h = harness(true);
    await h.call("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:4" });
    await h.runTasks();
    assert.match(String(await snap(h, 200, "c1", {}, "lxc")), /:vzsnapshot:200:/);
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/lxc/200/snapshot/c1/rollback", { start: 1 });
    assert.match(String(upid), /:vzrollback:200:/);
    assert.equal((await h.config(200, "pve1", "lxc")).lock, "rollback");
    await h.runTasks();
    assert.equal(h.task(upid).exitstatus, "OK");
    assert.equal(((await h.call("GET", "/nodes/pve1/lxc/200/status/current")) as Row).status, "running");
    assert.match(String(await h.call("DELETE", "/nodes/pve1/lxc/200/snapshot/c1")), /:vzdelsnapshot:200:/);
  });
});

describe("space held by snapshots", () => {
  it("each snapshot holds a tenth of its volumes on their storage until it is deleted", async () => {
    const h = harness();
    await h.createVm(100, { scsi0: "local-lvm:10" });
    const before = await used(h, "local-lvm");
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s_a" });
    await h.ok("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "s_b" });
    assert.equal(await used(h, "local-lvm"), before + 2 * GiB);
    const resources = (await h.call("GET", "/cluster/resources", { type: "storage" })) as Row[];
    assert.equal(resources.find((r) => r.storage === "local-lvm")?.disk, before + 2 * GiB);
    await h.ok("DELETE", "/nodes/pve1/qemu/100/snapshot/s_a");
    assert.equal(await used(h, "local-lvm"), before + GiB);
  });
});
