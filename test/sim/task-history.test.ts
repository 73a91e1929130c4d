// The simulator keeps at most 50,000 finished tasks per node (the oldest go first), checked
// once per 1,000 new tasks; running tasks are never dropped.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SimClock } from "../../src/sim/clock.js";
import { SeededRandom } from "../../src/sim/random.js";
import { TaskRunner } from "../../src/sim/tasks/manager.js";
import { DEFAULT_TIMING } from "../../src/sim/tasks/timing.js";

describe("task history", () => {
  it("drops the oldest finished tasks of a node past 50,000 and keeps the other node's", async () => {
    const runner = new TaskRunner(
      new SimClock(),
      new SeededRandom(1),
      { ...DEFAULT_TIMING },
      { failureFor: () => undefined, changed: () => {} },
    );
    const start = (node: string, id: number) => {
      const { record, release } = runner.create({ node, type: "qmstart", id: String(id), kind: "start", work: () => {} }, "root@pam");
      release();
      return record;
    };
    const stillRunning = runner.create({ node: "pve1", type: "qmcreate", id: "1", kind: "create", work: () => {} }, "root@pam").record;
    const first = start("pve1", 2);
    for (let i = 0; i < 10; i++) start("pve2", 100 + i);
    const settle = async () => {
      // instant tasks finish on the next turn of the event loop
      while (runner.all().filter((t) => t.status === "running").length > 1) await new Promise((r) => setTimeout(r, 1));
    };
    for (let i = 3; i < 52_500; i++) {
      start("pve1", i);
      if (i % 500 === 0) await settle();
    }
    await settle();
    const onNode = (node: string) => runner.all().filter((t) => t.node === node);
    assert.ok(onNode("pve1").length <= 50_000 + 1_000, `pve1 keeps ${onNode("pve1").length}`);
    assert.ok(onNode("pve1").length >= 50_000);
    assert.equal(onNode("pve2").length, 10, "another node's history is untouched");
    assert.equal(runner.get(first.upid), undefined, "the oldest finished task is gone");
    assert.equal(runner.get(stillRunning.upid)?.status, "running", "a running task stays");
    runner.close();
  });
});
