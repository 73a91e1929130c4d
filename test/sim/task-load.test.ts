// Per-node task load (admin taskLoad): what throttling tests and benchmarks read to show a
// client kept every node within its worker slots, or overloaded it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Router } from "../../src/sim/contract.js";
import type { RunningSimulator, SimulatorOptions } from "../../src/sim/index.js";
import { adminCall, call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

function testHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/startall", (ctx) =>
    ctx.tasks.start({ node: String(ctx.params.node), type: "startall", id: "", kind: "start", work: () => undefined }),
  );
}

async function startTasks(sim: RunningSimulator, auth: Credentials, node: string, n: number): Promise<string[]> {
  const upids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await call(sim, "POST", `/nodes/${node}/startall`, { auth });
    assert.equal(res.status, 200, res.text);
    upids.push(res.json.data as string);
  }
  return upids;
}

/** Stops tasks through the API, so no test waits for (or races) a task's duration. */
async function stopTasks(sim: RunningSimulator, auth: Credentials, node: string, upids: string[]): Promise<void> {
  for (const upid of upids)
    assert.equal((await call(sim, "DELETE", `/nodes/${node}/tasks/${encodeURIComponent(upid)}`, { auth })).status, 200);
}

async function withSim(options: SimulatorOptions, body: (sim: RunningSimulator, auth: Credentials) => Promise<void>): Promise<void> {
  const sim = await startHttpSim({ extraHandlers: testHandlers, ...options });
  try {
    await body(sim, await login(sim));
  } finally {
    sim.close();
  }
}

describe("simulator task load per node", () => {
  it("counts queued tasks as in flight and only slot holders as running, per node", async () => {
    await withSim({ timing: "realistic", timeScale: 0.001, workersPerNode: 2, durations: { start: 100000 } }, async (sim, auth) => {
      const onPve3 = await startTasks(sim, auth, "pve3", 5);
      const onPve1 = await startTasks(sim, auth, "pve1", 1);
      const during = sim.admin.taskLoad();
      assert.equal(during.slots, 2);
      assert.deepEqual(during.nodes.pve3, { inFlight: 5, running: 2, peakInFlight: 5, peakRunning: 2 });
      assert.deepEqual(during.nodes.pve1, { inFlight: 1, running: 1, peakInFlight: 1, peakRunning: 1 });
      assert.equal(during.nodes.pve2, undefined);
      await stopTasks(sim, auth, "pve3", onPve3);
      await stopTasks(sim, auth, "pve1", onPve1);
      assert.deepEqual(sim.admin.taskLoad().nodes.pve3, { inFlight: 0, running: 0, peakInFlight: 5, peakRunning: 2 });
      sim.admin.resetTaskLoad();
      assert.deepEqual(sim.admin.taskLoad().nodes.pve3, { inFlight: 0, running: 0, peakInFlight: 0, peakRunning: 0 });
    });
  });

  it("releases the counts of stopped tasks and of tasks a node failure ended", async () => {
    await withSim({ timing: "realistic", timeScale: 0.001, workersPerNode: 1, durations: { start: 5000 } }, async (sim, auth) => {
      const [running, queued] = await startTasks(sim, auth, "pve1", 2);
      await call(sim, "DELETE", `/nodes/pve1/tasks/${encodeURIComponent(queued as string)}`, { auth });
      assert.deepEqual(sim.admin.taskLoad().nodes.pve1, { inFlight: 1, running: 1, peakInFlight: 2, peakRunning: 1 });
      await call(sim, "DELETE", `/nodes/pve1/tasks/${encodeURIComponent(running as string)}`, { auth });
      assert.deepEqual(sim.admin.taskLoad().nodes.pve1, { inFlight: 0, running: 0, peakInFlight: 2, peakRunning: 1 });
      await startTasks(sim, auth, "pve2", 2);
      sim.admin.setNodeOnline("pve2", false);
      await sim.admin.waitForTasks(1000);
      assert.deepEqual(sim.admin.taskLoad().nodes.pve2, { inFlight: 0, running: 0, peakInFlight: 2, peakRunning: 1 });
      sim.admin.setNodeOnline("pve2", true);
    });
  });

  it("counts tasks of the instant profile while their work runs", async () => {
    await withSim({}, async (sim, auth) => {
      await startTasks(sim, auth, "pve2", 3);
      await sim.admin.waitForTasks();
      const load = sim.admin.taskLoad().nodes.pve2;
      assert.equal(load?.inFlight, 0);
      assert.equal(load?.running, 0);
      assert.ok((load?.peakInFlight ?? 0) >= 1 && (load?.peakRunning ?? 0) >= 1, JSON.stringify(load));
    });
  });

  it("answers the same over the HTTP admin API, and resets peaks there", async () => {
    await withSim({ timing: "realistic", timeScale: 0.001, workersPerNode: 3, durations: { start: 100000 } }, async (sim, auth) => {
      await stopTasks(sim, auth, "pve1", await startTasks(sim, auth, "pve1", 4));
      const read = await adminCall(sim, "GET", "/task-load");
      assert.equal(read.status, 200);
      assert.deepEqual(read.json.data, { slots: 3, nodes: { pve1: { inFlight: 0, running: 0, peakInFlight: 4, peakRunning: 3 } } });
      assert.equal((await adminCall(sim, "DELETE", "/task-load")).status, 200);
      assert.deepEqual((await adminCall(sim, "GET", "/task-load")).json.data, {
        slots: 3,
        nodes: { pve1: { inFlight: 0, running: 0, peakInFlight: 0, peakRunning: 0 } },
      });
    });
  });
});
