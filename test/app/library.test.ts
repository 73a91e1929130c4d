// pvectl used as a library, through the package entry only: a spec is planned against the
// simulator, the plan applied, and a second plan of the same spec is empty; then destroyed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  applyPlan,
  parseSpec,
  planDestroy,
  planHasChanges,
  planSpec,
  PveClient,
  type RunningSimulator,
  startSimulator,
} from "../../src/index.js";

const SPEC = parseSpec(
  `
version: 1
vms:
  - vmid: 240
    name: lib1
    node: pve1
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
  - name: lib2
    node: pve2
    power: running
    nics:
      net0: { bridge: vmbr1 }
`,
  "lib.yaml",
);

const FAST = { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 } };

describe("the package entry, as a library user calls it", () => {
  let sim: RunningSimulator;
  let client: PveClient;
  before(async () => {
    sim = await startSimulator({ port: 0, https: false, seed: 3 });
    const url = new URL(sim.url);
    client = new PveClient({ host: url.hostname, port: Number(url.port), protocol: "http", user: "root@pam", password: sim.rootPassword });
  });
  after(async () => {
    await client.close();
    await sim.close();
  });

  it("planSpec, applyPlan, and the rerun plan is empty", async () => {
    const planned = await planSpec(client, SPEC);
    assert.deepEqual(
      planned.plan.guests.map((g) => [g.key, g.steps.map((s) => s.action)]),
      [
        ["lib1", ["create"]],
        ["lib2", ["create"]],
      ],
    );
    // The plan is plain data: what a caller prints or saves is the whole of it.
    assert.deepEqual(JSON.parse(JSON.stringify(planned.plan)), planned.plan);

    const report = await applyPlan(client, planned, { ...FAST, verifyConvergence: true });
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    assert.deepEqual(
      report.guests.map((g) => [g.key, g.result]),
      [
        ["lib1", "created"],
        ["lib2", "created"],
      ],
    );
    assert.equal(report.guests[0]!.vmid, 240);
    assert.match(report.guests[1]!.macs.net0 ?? "", /^BC:24:11(:[0-9A-F]{2}){3}$/);

    const rerun = await planSpec(client, SPEC);
    assert.equal(planHasChanges(rerun.plan), false, JSON.stringify(rerun.plan.guests.map((g) => g.steps.map((s) => s.summary))));
  });

  it("planDestroy names the guests to destroy; applyPlan destroys them under the guard rails", async () => {
    const planned = await planDestroy(client, SPEC);
    assert.deepEqual(
      planned.plan.guests.map((g) => [g.key, g.steps.map((s) => s.action)]),
      [
        ["lib1", ["destroy"]],
        ["lib2", ["stop", "destroy"]],
      ],
    );
    const refused = await applyPlan(client, planned, FAST);
    assert.deepEqual(
      refused.guests.map((g) => g.result),
      ["skipped", "skipped"],
    );
    const report = await applyPlan(client, planned, { ...FAST, allowDataLoss: true, allowRestart: true });
    assert.deepEqual(
      report.guests.map((g) => [g.key, g.result]),
      [
        ["lib1", "destroyed"],
        ["lib2", "destroyed"],
      ],
    );
    assert.deepEqual(
      (await planSpec(client, SPEC)).plan.guests.map((g) => g.steps.map((s) => s.action)),
      [["create"], ["create"]],
    );
  });
});
