// The engine's many-task watcher and the client's single-task wait must report a task alike:
// the same outcome, warnings and failure message with the log tail, so a failed step reads the
// same however it was awaited.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { TaskWatcher } from "../../src/api/task-watcher.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

describe("task watcher", () => {
  let sim: RunningSimulator;
  let root: PveClient;

  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11 });
    root = new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword, ca: sim.ca! });
    const upid = (await root.post("/nodes/{node}/qemu", { node: "pve1", vmid: 9200, name: "watched", start: true })) as string;
    await root.waitForTask(upid);
  });
  after(async () => {
    await root.close();
    await sim.close();
  });

  it("resolves a task that ended OK", async () => {
    const upid = (await root.post("/nodes/{node}/qemu/{vmid}/status/suspend", { node: "pve1", vmid: 9200 })) as string;
    const outcome = await new TaskWatcher(root, { minIntervalMs: 10 }).wait(upid);
    assert.deepEqual(outcome, { upid, exitstatus: "OK", warnings: [] });
  });

  it("rejects a failed task with the same error the single-task wait gives", async () => {
    const message = "VM 9200 qmp command 'quit' failed - got timeout";
    sim.admin.failTasks({ type: "qmstop", message, times: 1 });
    const upid = (await root.post("/nodes/{node}/qemu/{vmid}/status/stop", { node: "pve1", vmid: 9200 })) as string;
    const watched = (await new TaskWatcher(root, { minIntervalMs: 10 }).wait(upid).catch((e: unknown) => e)) as PveError;
    const single = (await root.waitForTask(upid).catch((e: unknown) => e)) as PveError;
    assert.ok(watched instanceof PveError && single instanceof PveError);
    assert.equal(watched.kind, "task");
    assert.equal(watched.task?.logTail.at(-1), `TASK ERROR: ${message}`);
    assert.equal(watched.message, single.message);
    assert.match(watched.message, new RegExp(`\\(task ${upid.replace(/[$^.*+?()[\]{}|\\]/g, "\\$&")}\\)$`));
  });
});
