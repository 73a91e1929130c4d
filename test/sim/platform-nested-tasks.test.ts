// A task started by another task's work (an LXC create with start=1 calls the start API from
// its worker, as pve-container does) runs like any other, with realistic timing too: it must not
// wait for an HTTP response that has already gone out.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, login, startHttpSim } from "./platform-helpers.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

describe("tasks started by tasks", () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startHttpSim({ nodes: 1, timing: "realistic", timeScale: 0.002 });
  });
  after(async () => {
    await sim?.close();
  });

  it("create with start=1 ends vzcreate, then a vzstart task runs and the CT is running", async () => {
    const auth = await login(sim);
    const created = await call(sim, "POST", "/nodes/pve1/lxc", {
      auth,
      params: { vmid: 300, ostemplate: TEMPLATE, rootfs: "local-lvm:2", start: 1 },
    });
    assert.equal(created.status, 200);
    const deadline = Date.now() + 10_000;
    let tasks: Array<{ type: string; status?: string }> = [];
    while (Date.now() < deadline) {
      tasks = (await call(sim, "GET", "/nodes/pve1/tasks", { auth, params: { source: "all" } })).json.data;
      if (tasks.length === 2 && tasks.every((t) => t.status === "OK")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(tasks.map((t) => `${t.type}:${t.status}`).sort(), ["vzcreate:OK", "vzstart:OK"]);
    const status = await call(sim, "GET", "/nodes/pve1/lxc/300/status/current", { auth });
    assert.equal(status.json.data.status, "running");
  });
});
