// VZDump backs up a node's guests one after another and locks each only for its own turn
// (lock_vm per guest): while a job over many guests runs, the others stay unlocked and usable,
// and a guest that someone else locked before its turn fails alone (`VM is locked`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness } from "./guests-harness.js";

describe("vzdump all=1 locks one guest at a time", () => {
  it("only the guest being backed up shows lock: backup", async () => {
    const h = new Harness({ deferTasks: true });
    for (const vmid of [100, 101, 102]) await h.call("POST", "/nodes/pve1/qemu", { vmid, scsi0: "local-lvm:1" });
    await h.runTasks();
    const upid = await h.call("POST", "/nodes/pve1/vzdump", { all: 1, storage: "shared" });
    const locks = await Promise.all([100, 101, 102].map(async (vmid) => (await h.config(vmid)).lock));
    assert.deepEqual(locks, ["backup", undefined, undefined]);
    // a later guest taken by something else before its turn fails alone
    h.model.guest(102)!.config.lock = "migrate";
    await h.runTasks();
    const task = h.task(upid);
    assert.equal(task.exitstatus, "job errors");
    assert.ok(task.log.includes("ERROR: Backup of VM 102 failed - VM is locked (migrate)"));
    assert.deepEqual(await Promise.all([100, 101].map(async (vmid) => (await h.config(vmid)).lock)), [undefined, undefined]);
    const archives = (await h.call("GET", "/nodes/pve1/storage/shared/content", { content: "backup" })) as Array<Record<string, unknown>>;
    assert.deepEqual(archives.map((a) => a.vmid).sort(), [100, 101]);
  });
});
