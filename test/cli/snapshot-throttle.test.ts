// Issue #15's throttling proof: `pvectl snapshot create` over 200 guests on 3 nodes with
// realistic task durations never has more tasks in flight on a node (running + queued, as the
// simulator counts them) than that node's worker slots, which the simulator is given as pvectl's
// own per-node sizing; and it still uses them (not one guest at a time). Every guest gets its
// snapshot and the report lists all 200.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { defaultPerNode } from "../../src/engine/apply.js";
import { readCluster } from "../../src/engine/cluster.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type OwnedGuest, ownedGuests, seedOwnedGuests, snapshotsByVmid } from "./owned-guests.js";
import { pvectl, simEnv } from "../support/cli.js";

const NODES = 3;
const COUNT = 200;
/** The worker slots of every node: pvectl's own per-node limit, sized from the node's CPUs. */
let SLOTS: number;
let sim: RunningSimulator;
let guests: OwnedGuest[];

before(async () => {
  sim = await startSimulator({ port: 0, nodes: NODES, seed: 15 });
  guests = ownedGuests(COUNT, NODES);
  await seedOwnedGuests(sim, guests);
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  const cluster = await readCluster(client).finally(() => client.close());
  const sizes = new Set([...cluster.nodes.keys()].map((node) => defaultPerNode(cluster, node)));
  assert.equal(sizes.size, 1, "the nodes are alike");
  SLOTS = [...sizes][0] as number;
  // Snapshot tasks take 1.5 s (+-25%) simulated; at 0.05 a round of SLOTS snapshots is ~75 ms.
  sim.admin.setTiming({ profile: "realistic", timeScale: 0.05, workersPerNode: SLOTS });
  sim.admin.resetTaskLoad();
});
after(async () => {
  await sim?.close();
});

test("snapshot create over 200 guests keeps every node within its worker slots", { timeout: 600_000 }, async () => {
  const made = await pvectl(["snapshot", "create", "before-upgrade", "--all", "--yes", "--json"], simEnv(sim));
  assert.equal(made.code, 0, `${made.stdout.slice(-3000)}${made.stderr}`);

  const load = sim.admin.taskLoad();
  assert.equal(load.slots, SLOTS);
  for (let n = 1; n <= NODES; n++) {
    const node = load.nodes[`pve${n}`];
    assert.ok(node, `pve${n} ran tasks`);
    assert.ok(node.peakInFlight <= SLOTS, `pve${n}: ${node.peakInFlight} tasks in flight at once, over its ${SLOTS} slots`);
    assert.ok(node.peakInFlight >= 2, `pve${n}: guests were snapshotted one at a time (peak ${node.peakInFlight})`);
  }

  const snapshots = await snapshotsByVmid(sim, guests);
  const missing = guests.filter((g) => !(snapshots.get(g.vmid) ?? []).includes("before-upgrade")).map((g) => g.vmid);
  assert.deepEqual(missing, [], "every guest has its snapshot");

  const report = JSON.parse(made.stdout) as { ok: boolean; guests: Array<{ vmid?: number; result: string }> };
  assert.equal(report.ok, true);
  assert.deepEqual(report.guests.map((g) => g.vmid).sort(), guests.map((g) => g.vmid).sort());
  assert.ok(
    report.guests.every((g) => g.result === "changed"),
    "every guest reported changed",
  );
});
