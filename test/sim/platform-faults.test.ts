// Fault injection (in-process and over the /_sim admin API): error answers, latency, dropped
// connections, failing tasks, held locks; determinism with the seed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Router } from "../../src/sim/contract.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { adminCall, call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

function taskEndpoint(router: Router): void {
  router.add("POST", "/nodes/{node}/startall", (ctx) =>
    ctx.tasks.start({
      node: String(ctx.params.node),
      type: "startall",
      id: "",
      kind: "start",
      work: () => {},
      onFailure: (task, message) => task.log(`cleaning up after: ${message}`),
    }),
  );
}

const admin = adminCall;

describe("simulator faults", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim({ extraHandlers: taskEndpoint });
    root = await login(sim);
  });
  after(() => sim.close());

  it("answers matching requests with the injected status and message, a given number of times", async () => {
    const fault = sim.admin.injectFault({ method: "GET", path: "^/version$", status: 500, message: "got timeout", times: 1 });
    const first = await call(sim, "GET", "/version", { auth: root });
    assert.equal(first.status, 500);
    assert.equal(first.reason, "got timeout");
    assert.deepEqual(first.json, { data: null, message: "got timeout\n" });
    assert.equal((await call(sim, "GET", "/version", { auth: root })).status, 200);
    assert.equal(sim.admin.listFaults().requests.find((f) => f.id === fault.id)?.hits, 1);
    sim.admin.clearFaults();
  });

  it("adds latency to matching requests", async () => {
    sim.admin.injectFault({ path: "^/version$", latencyMs: 200 });
    const t0 = performance.now();
    assert.equal((await call(sim, "GET", "/version", { auth: root })).status, 200);
    assert.ok(performance.now() - t0 >= 195);
    sim.admin.clearFaults();
  });

  it("drops the connection without an answer", async () => {
    sim.admin.injectFault({ path: "^/nodes$", drop: true, times: 1 });
    await assert.rejects(call(sim, "GET", "/nodes", { auth: root }));
    assert.equal((await call(sim, "GET", "/nodes", { auth: root })).status, 200);
  });

  it("is driven over HTTP below /_sim as well", async () => {
    const added = await admin(sim, "POST", "/faults", { method: "POST", path: "^/access/groups$", status: 503, message: "busy" });
    assert.equal(added.status, 200);
    const id = (added.json.data as { id: number }).id;
    const res = await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "g1" } });
    assert.equal(res.status, 503);
    assert.equal(res.reason, "busy");
    assert.equal((await admin(sim, "DELETE", `/faults/${id}`)).status, 200);
    assert.equal((await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "g1" } })).status, 200);
    assert.equal((await admin(sim, "DELETE", "/faults/9999")).status, 404);
    const info = await admin(sim, "GET", "/info");
    assert.deepEqual((info.json.data as { nodes: string[] }).nodes, ["pve1", "pve2", "pve3"]);
  });

  it("makes matching tasks fail with the given message, undoing their setup", async () => {
    sim.admin.failTasks({ type: "startall", message: "storage 'local-lvm' is offline", times: 1 });
    const res = await call(sim, "POST", "/nodes/pve1/startall", { auth: root });
    await sim.admin.waitForTasks();
    const upid = encodeURIComponent(res.json.data);
    const status = await call(sim, "GET", `/nodes/pve1/tasks/${upid}/status`, { auth: root });
    assert.equal(status.json.data.exitstatus, "storage 'local-lvm' is offline");
    const log = await call(sim, "GET", `/nodes/pve1/tasks/${upid}/log`, { auth: root });
    assert.deepEqual(
      log.json.data.map((l: { t: string }) => l.t),
      ["cleaning up after: storage 'local-lvm' is offline", "TASK ERROR: storage 'local-lvm' is offline"],
    );
    const next = await call(sim, "POST", "/nodes/pve1/startall", { auth: root });
    await sim.admin.waitForTasks();
    const ok = await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(next.json.data)}/status`, { auth: root });
    assert.equal(ok.json.data.exitstatus, "OK");
  });

  it("takes a node offline and back through the admin API", async () => {
    assert.equal((await admin(sim, "POST", "/nodes/pve3/offline")).status, 200);
    assert.equal((await call(sim, "GET", "/nodes/pve3/tasks", { auth: root })).status, 595);
    const nodes = await call(sim, "GET", "/nodes", { auth: root });
    assert.equal(nodes.json.data.find((n: { node: string }) => n.node === "pve3").status, "offline");
    assert.equal((await admin(sim, "POST", "/nodes/pve3/online")).status, 200);
    assert.equal((await call(sim, "GET", "/nodes/pve3/tasks", { auth: root })).status, 200);
    assert.equal((await admin(sim, "POST", "/nodes/nope/offline")).status, 400);
  });

  it("holds a lock on a guest until released, and only on existing guests", async () => {
    const created = await call(sim, "POST", "/nodes/pve1/qemu", { auth: root, params: { vmid: 700, memory: 512 } });
    assert.equal(created.status, 200);
    await sim.admin.waitForTasks();
    assert.equal((await admin(sim, "POST", "/locks", { vmid: 700, lock: "backup" })).status, 200);
    const locked = await call(sim, "PUT", "/nodes/pve1/qemu/700/config", { auth: root, params: { memory: 1024 } });
    assert.equal(locked.status, 500);
    assert.equal(locked.reason, "VM is locked (backup)");
    assert.equal((await admin(sim, "DELETE", "/locks/700")).status, 200);
    assert.equal((await call(sim, "PUT", "/nodes/pve1/qemu/700/config", { auth: root, params: { memory: 1024 } })).status, 200);
    assert.equal(sim.admin.holdLock(123456), false);
    assert.equal((await admin(sim, "POST", "/locks", { vmid: 123456 })).status, 404);
  });

  it("applies probabilistic faults to some requests, the same ones for the same seed", async () => {
    const pattern = async () => {
      const s = await startHttpSim({ seed: 5 });
      try {
        const auth = await login(s);
        s.admin.injectFault({ path: "^/version$", status: 500, message: "flaky", probability: 0.5 });
        let out = "";
        for (let i = 0; i < 20; i++) out += (await call(s, "GET", "/version", { auth })).status === 500 ? "x" : ".";
        return out;
      } finally {
        await s.close();
      }
    };
    const first = await pattern();
    assert.match(first, /x/);
    assert.match(first, /\./);
    assert.equal(await pattern(), first);
  });

  it("repeats the same secrets and task ids with the same seed", async () => {
    const run = async () => {
      const s = await startHttpSim({ seed: 99, extraHandlers: taskEndpoint });
      try {
        const auth = await login(s);
        const token = await call(s, "POST", "/access/users/root@pam/token/tk", { auth });
        const upid = (await call(s, "POST", "/nodes/pve1/startall", { auth })).json.data as string;
        return { secret: token.json.data.value, pid: upid.split(":")[2] };
      } finally {
        await s.close();
      }
    };
    assert.deepEqual(await run(), await run());
  });
});
