// Tasks: UPIDs, status, log, list filters, stop, ownership, and realistic timing with a
// limited number of workers per node. A test endpoint (startall) starts the tasks so these
// tests do not depend on the guest model.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Router } from "../../src/sim/contract.js";
import type { RunningSimulator, SimulatorOptions } from "../../src/sim/index.js";
import { call, type Credentials, createToken, createUser, login, startHttpSim } from "./platform-helpers.js";

const UPID_RE = /^UPID:(pve\d):([0-9A-F]{8}):([0-9A-F]{8,9}):([0-9A-F]{8}):([^:]+):([^:]*):([^:]+):$/;

/** POST /nodes/{node}/startall starts a "startall" task; force=1 makes its work fail. */
function testHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/startall", (ctx) =>
    ctx.tasks.start({
      node: String(ctx.params.node),
      type: "startall",
      id: "",
      kind: "start",
      work: (task) => {
        task.log("starting guests");
        if (ctx.params.force === 1) throw new Error("VM 100 already running\n");
      },
    }),
  );
}

function startSim(options: SimulatorOptions = {}) {
  return startHttpSim({ extraHandlers: testHandlers, ...options });
}

async function startTask(sim: RunningSimulator, auth: Credentials, node = "pve1", params: Record<string, string | number> = {}) {
  const res = await call(sim, "POST", `/nodes/${node}/startall`, { auth, params });
  assert.equal(res.status, 200, res.text);
  return res.json.data as string;
}

describe("simulator tasks (instant timing)", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("returns a PVE-shaped UPID and finishes the task with OK and a log", async () => {
    const upid = await startTask(sim, root);
    const m = UPID_RE.exec(upid);
    assert.ok(m, upid);
    assert.equal(m[5], "startall");
    assert.equal(m[7], "root@pam");
    await sim.admin.waitForTasks();
    const status = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: root });
    assert.equal(status.status, 200);
    assert.deepEqual(status.json.data, {
      upid,
      node: "pve1",
      pid: Number.parseInt(m[2] as string, 16),
      pstart: Number.parseInt(m[3] as string, 16),
      starttime: Number.parseInt(m[4] as string, 16),
      type: "startall",
      id: "",
      user: "root@pam",
      status: "stopped",
      exitstatus: "OK",
    });
    const log = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/log`, { auth: root });
    assert.deepEqual(log.json, {
      data: [
        { n: 1, t: "starting guests" },
        { n: 2, t: "TASK OK" },
      ],
      total: 2,
    });
    const page = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/log`, {
      auth: root,
      params: { start: 1, limit: 1 },
    });
    assert.deepEqual(page.json, { data: [{ n: 2, t: "TASK OK" }], total: 2 });
  });

  it("reports a failing task's error as its exit status and last log line", async () => {
    const upid = await startTask(sim, root, "pve1", { force: 1 });
    await sim.admin.waitForTasks();
    const status = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: root });
    assert.equal(status.json.data.exitstatus, "VM 100 already running");
    const log = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/log`, { auth: root });
    assert.equal(log.json.data.at(-1).t, "TASK ERROR: VM 100 already running");
  });

  it("lists finished tasks newest first with filters, paging and total", async () => {
    const local = await startSim();
    try {
      const auth = await login(local);
      for (let i = 0; i < 3; i++) await startTask(local, auth, "pve2");
      await startTask(local, auth, "pve2", { force: 1 });
      await local.admin.waitForTasks();
      const all = await call(local, "GET", "/nodes/pve2/tasks", { auth });
      assert.equal(all.json.total, 4);
      assert.equal(all.json.data.length, 4);
      const item = all.json.data[0];
      assert.deepEqual(Object.keys(item).sort(), ["endtime", "id", "node", "pid", "pstart", "starttime", "status", "type", "upid", "user"]);
      const errors = await call(local, "GET", "/nodes/pve2/tasks", { auth, params: { errors: 1 } });
      assert.deepEqual(
        errors.json.data.map((t: { status: string }) => t.status),
        ["VM 100 already running"],
      );
      const okOnly = await call(local, "GET", "/nodes/pve2/tasks", { auth, params: { statusfilter: "ok" } });
      assert.equal(okOnly.json.total, 3);
      const paged = await call(local, "GET", "/nodes/pve2/tasks", { auth, params: { start: 1, limit: 2 } });
      assert.equal(paged.json.total, 4);
      assert.deepEqual(
        paged.json.data.map((t: { upid: string }) => t.upid),
        all.json.data.slice(1, 3).map((t: { upid: string }) => t.upid),
      );
      const otherType = await call(local, "GET", "/nodes/pve2/tasks", { auth, params: { typefilter: "qmstart" } });
      assert.equal(otherType.json.total, 0);
      assert.equal((await call(local, "GET", "/nodes/pve1/tasks", { auth })).json.total, 0);
      const cluster = await call(local, "GET", "/cluster/tasks", { auth });
      assert.equal(cluster.json.data.length, 4);
    } finally {
      await local.close();
    }
  });

  it("answers unknown and malformed UPIDs like PVE", async () => {
    const bogus = "UPID:pve1:00001234:00005678:6B0FEED8:qmstart:100:root@pam:";
    const unknown = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(bogus)}/status`, { auth: root });
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.json.errors, { upid: "no such task" });
    const garbage = await call(sim, "GET", "/nodes/pve1/tasks/not-a-upid/status", { auth: root });
    assert.deepEqual(garbage.json.errors, { upid: "unable to parse worker upid" });
  });

  it("shows token tasks with the token in the UPID and a tokenid field, and hides them from other users", async () => {
    const token = await createToken(sim, root, "root@pam", "tasks", 0);
    const upid = await startTask(sim, token);
    assert.equal(UPID_RE.exec(upid)?.[7], "root@pam!tasks");
    await sim.admin.waitForTasks();
    const status = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: token });
    assert.equal(status.json.data.user, "root@pam");
    assert.equal(status.json.data.tokenid, "tasks");
    const dave = await createUser(sim, root, "dave@pve");
    const foreign = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: dave });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.reason, "Permission check failed (/nodes/pve1, Sys.Audit)");
    const list = await call(sim, "GET", "/nodes/pve1/tasks", { auth: dave });
    assert.equal(list.json.total, 0);
  });
});

describe("simulator tasks (realistic timing)", () => {
  it("runs at most workersPerNode tasks at once per node and queues the rest", async () => {
    // 400 simulated seconds per task at timeScale 0.001 = 300..500 ms of real time.
    const finished: number[] = [];
    const sim = await startHttpSim({
      timing: "realistic",
      timeScale: 0.001,
      workersPerNode: 2,
      durations: { start: 400 },
      extraHandlers: (router) =>
        router.add("POST", "/nodes/{node}/startall", (ctx) =>
          ctx.tasks.start({
            node: String(ctx.params.node),
            type: "startall",
            id: "",
            kind: "start",
            work: () => void finished.push(performance.now()),
          }),
        ),
    });
    try {
      const auth = await login(sim);
      const t0 = performance.now();
      const upids = [];
      for (let i = 0; i < 6; i++) upids.push(await startTask(sim, auth, "pve3"));
      // The sixth task waits behind two full rounds, so it is still running now.
      const last = await call(sim, "GET", `/nodes/pve3/tasks/${encodeURIComponent(upids[5] as string)}/status`, { auth });
      assert.equal(last.json.data.status, "running");
      const active = await call(sim, "GET", "/nodes/pve3/tasks", { auth, params: { source: "active" } });
      assert.ok(active.json.data.every((t: { status: string }) => t.status === "RUNNING"));
      await sim.admin.waitForTasks();
      // With two workers the k-th task to finish cannot finish before ceil(k/2) rounds of >= 300 ms.
      finished.sort((a, b) => a - b);
      assert.equal(finished.length, 6);
      finished.forEach((time, k) => {
        const rounds = Math.ceil((k + 1) / 2);
        assert.ok(time - t0 >= rounds * 300 - 5, `task ${k + 1} finished after ${(time - t0).toFixed(0)} ms`);
      });
      const done = await call(sim, "GET", "/nodes/pve3/tasks", { auth });
      assert.equal(done.json.total, 6);
      assert.ok(done.json.data.every((t: { status: string }) => t.status === "OK"));
    } finally {
      await sim.close();
    }
  });

  it("ends the tasks of a node that goes offline with 'unexpected status'", async () => {
    const sim = await startSim({ timing: "realistic", timeScale: 0.001, workersPerNode: 1, durations: { start: 5000 } });
    try {
      const auth = await login(sim);
      const running = await startTask(sim, auth, "pve2");
      const queued = await startTask(sim, auth, "pve2");
      sim.admin.setNodeOnline("pve2", false);
      sim.admin.setNodeOnline("pve2", true);
      await sim.admin.waitForTasks(1000);
      for (const upid of [running, queued]) {
        const status = await call(sim, "GET", `/nodes/pve2/tasks/${encodeURIComponent(upid)}/status`, { auth });
        assert.equal(status.json.data.exitstatus, "unexpected status");
      }
    } finally {
      await sim.close();
    }
  });

  it("stops a queued task with 'interrupted by signal'", async () => {
    const sim = await startSim({ timing: "realistic", timeScale: 0.001, workersPerNode: 1, durations: { start: 200 } });
    try {
      const auth = await login(sim);
      await startTask(sim, auth);
      const second = await startTask(sim, auth);
      const stopped = await call(sim, "DELETE", `/nodes/pve1/tasks/${encodeURIComponent(second)}`, { auth });
      assert.equal(stopped.status, 200);
      const status = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(second)}/status`, { auth });
      assert.equal(status.json.data.status, "stopped");
      assert.equal(status.json.data.exitstatus, "interrupted by signal");
      await sim.admin.waitForTasks();
    } finally {
      await sim.close();
    }
  });
});
