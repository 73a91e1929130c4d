// Snapshots as a library user takes and lists them, through the package entry only: the
// listing that used to live in the CLI (snapshot list) is a use case a program can call.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  applyPlan,
  listSnapshots,
  parseSpec,
  planSnapshots,
  planSpec,
  PveClient,
  type RunningSimulator,
  startSimulator,
} from "../../src/index.js";

const SPEC = parseSpec(
  `
version: 1
vms:
  - vmid: 250
    name: snaplib
    node: pve1
    disks:
      scsi0: { storage: local-lvm, size: 4G }
`,
  "snaplib.yaml",
);

const FAST = { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 } };

describe("snapshots through the package entry", () => {
  let sim: RunningSimulator;
  let client: PveClient;
  before(async () => {
    sim = await startSimulator({ port: 0, https: false, seed: 5 });
    const url = new URL(sim.url);
    client = new PveClient({ host: url.hostname, port: Number(url.port), protocol: "http", user: "root@pam", password: sim.rootPassword });
    const created = await applyPlan(client, await planSpec(client, SPEC), FAST);
    assert.equal(created.ok, true, JSON.stringify(created.guests.map((g) => g.error)));
  });
  after(async () => {
    await client.close();
    await sim.close();
  });

  it("planSnapshots and applyPlan take a snapshot; listSnapshots lists it, and names what it did not find", async () => {
    const before = await listSnapshots(client, { vmids: [250] });
    assert.deepEqual(
      before.guests.map((g) => [g.key, g.vmid, g.snapshots]),
      [["snaplib", 250, []]],
    );

    const planned = await planSnapshots(client, { vmids: [250] }, { action: "create", name: "before-upgrade", description: "first" });
    const report = await applyPlan(client, { plan: planned.plan, desired: [], context: planned.context }, FAST);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));

    const listed = await listSnapshots(client, { vmids: [250, 999] });
    assert.deepEqual(
      listed.guests.map((g) => [g.key, g.node, g.snapshots.map((s) => [s.name, s.description])]),
      [["snaplib", "pve1", [["before-upgrade", "first"]]]],
    );
    assert.equal(typeof listed.guests[0]!.snapshots[0]!.snaptime, "number");
    assert.deepEqual(listed.selection.notFound, ["vmid 999"]);
  });
});
