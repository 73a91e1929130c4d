// pvectl works on as many guests at once per node as datacenter.cfg's max_workers says (PVE's
// own bulk actions do), else half the node's CPUs; the simulator, with more worker slots than
// either, shows what pvectl asked of each node at once. A token that may not read the
// datacenter options falls back to the CPU sizing instead of failing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { readMaxWorkers } from "../../src/engine/node-concurrency.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { ownedGuests, seedOwnedGuests } from "../cli/owned-guests.js";
import { pvectl, simEnv } from "../support/cli.js";

const NODES = 3;
/** More than pvectl's CPU sizing (8 on the simulator's 16-CPU nodes), so no task waits for a slot. */
const SLOTS = 32;
let sim: RunningSimulator;
let root: PveClient;

before(async () => {
  sim = await startSimulator({ port: 0, nodes: NODES, seed: 9 });
  await seedOwnedGuests(sim, ownedGuests(60, NODES));
  root = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
});
after(async () => {
  await root?.close();
  await sim?.close();
});

/** The most tasks any node had in flight while `pvectl snapshot create` ran over every guest. */
async function peakPerNode(snapshot: string): Promise<number> {
  sim.admin.setTiming({ profile: "realistic", timeScale: 0.02, workersPerNode: SLOTS });
  sim.admin.resetTaskLoad();
  const run = await pvectl(["snapshot", "create", snapshot, "--all", "--yes", "--json"], simEnv(sim));
  sim.admin.setTiming({ profile: "instant", timeScale: 1, workersPerNode: SLOTS });
  assert.equal(run.code, 0, `${run.stdout.slice(-2000)}${run.stderr}`);
  return Math.max(...Object.values(sim.admin.taskLoad().nodes).map((n) => n.peakInFlight));
}

test("max_workers in datacenter.cfg bounds the guests pvectl works on at once per node", { timeout: 300_000 }, async () => {
  await root.request("PUT", "/cluster/options", { max_workers: 3 });
  assert.equal(await readMaxWorkers(root), 3);
  const bounded = await peakPerNode("with-max-workers");
  assert.ok(bounded <= 3, `a node had ${bounded} tasks in flight, over max_workers 3`);
  assert.ok(bounded >= 2, `guests went one at a time (peak ${bounded})`);

  await root.request("PUT", "/cluster/options", { delete: "max_workers" });
  assert.equal(await readMaxWorkers(root), undefined);
  const unset = await peakPerNode("without-max-workers");
  assert.ok(unset > 3 && unset <= 8, `without max_workers pvectl sizes from the CPUs (16 -> 8), peak ${unset}`);
});

test("a client that may not read the datacenter options gets the CPU sizing, not an error", async () => {
  const forbidden = new PveError({ kind: "http", status: 403, message: "Permission check failed (/, Sys.Audit)" });
  const reader = { request: async () => Promise.reject(forbidden) };
  assert.equal(await readMaxWorkers(reader), undefined);
  const broken = new PveError({ kind: "http", status: 500, message: "internal error" });
  await assert.rejects(readMaxWorkers({ request: async () => Promise.reject(broken) }), /internal error/);
});
