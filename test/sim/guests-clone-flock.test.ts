// A VM clone holds its source's config-file lock (qemu-server: shared while the source is
// stopped, exclusive while it runs); the lock never shows in the config, only as PVE's
// "can't lock file … - got timeout" to whoever needs it meanwhile. The new VM shows `lock: clone`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Harness, rejects } from "./guests-harness.js";

const TIMEOUT = "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout";

async function source(running: boolean, template = false): Promise<Harness> {
  const h = new Harness({ deferTasks: true });
  await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4", ...(running ? { start: 1 } : {}) });
  await h.runTasks();
  if (template) {
    await h.call("POST", "/nodes/pve1/qemu/100/template");
    await h.runTasks();
  }
  return h;
}

describe("clone and the source's config-file lock", () => {
  it("clones of a running VM go one at a time: the second fails its task and creates nothing", async () => {
    const h = await source(true);
    const first = await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 });
    const second = await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 102 });
    assert.equal((await h.config(101)).lock, "clone", "the new VM is locked while it is made");
    assert.equal((await h.config(100)).lock, undefined, "the source's config shows no lock");
    await h.runTasks();
    assert.equal(h.task(first).exitstatus, "OK");
    assert.equal(h.task(second).exitstatus, TIMEOUT);
    assert.equal(h.model.guest(102), undefined);
    const third = await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 102 });
    await h.runTasks();
    assert.equal(h.task(third).exitstatus, "OK");
  });

  it("linked clones of a template run side by side", async () => {
    const h = await source(false, true);
    const upids = [
      await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 }),
      await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 102 }),
    ];
    await h.runTasks();
    assert.deepEqual(
      upids.map((u) => h.task(u).exitstatus),
      ["OK", "OK"],
    );
  });

  it("a config change or snapshot of the source while it is cloned meets the lock; after, it goes through", async () => {
    const h = await source(false);
    await h.call("POST", "/nodes/pve1/qemu/100/clone", { newid: 101 });
    await rejects(h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4 }), 500, TIMEOUT);
    const snap = await h.call("POST", "/nodes/pve1/qemu/100/snapshot", { snapname: "during" });
    await h.runTasks();
    assert.equal(h.task(snap).exitstatus, TIMEOUT);
    await h.call("PUT", "/nodes/pve1/qemu/100/config", { cores: 4 });
    assert.equal((await h.config(100)).cores, 4);
  });
});
