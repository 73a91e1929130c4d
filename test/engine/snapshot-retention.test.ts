// `snapshots: { keep, prefix }` in a spec: apply prunes that guest's prefixed snapshots beyond
// the newest `keep` (guarded data-loss-risk steps, the same choice as `snapshot prune`), never
// creates one, and a guest without `snapshots:` is never touched.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { planSnapshots, readSnapshots } from "../../src/engine/snapshot-plan.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const spec = (retention: string) => `version: 1
vms:
  - { vmid: 430, name: keep430, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } }${retention} }
  - { vmid: 431, name: other431, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
containers:
  - { vmid: 432, hostname: ct432, node: pve2, ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: { storage: local-lvm, size: 2G }${retention} }
`;
const RETAIN = ", snapshots: { keep: 2, prefix: auto- }";

describe("snapshot retention in the spec", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const { report } = await converge(lab, spec(""));
    assert.equal(report.ok, true);
    for (const name of ["auto-1", "hand", "auto-2", "auto-3", "auto-4"]) {
      const { plan } = await planSnapshots(lab.client, { vmids: [430, 431, 432] }, { action: "create", name });
      assert.equal((await applyPlan(lab.client, plan, fastApply)).ok, true);
      lab.sim.admin.advanceClock(60);
    }
  });
  after(async () => lab.close());

  const names = async (vmid: number, type: "qemu" | "lxc" = "qemu") =>
    (await readSnapshots(lab.client, { type, node: vmid === 432 ? "pve2" : "pve1", vmid })).map((s) => s.name);

  it("a spec without snapshots: plans nothing about them", async () => {
    const { plan } = await planSpec(lab.client, parseSpec(spec(""), "s.yaml"));
    assert.deepEqual(
      plan.guests.flatMap((g) => g.steps),
      [],
    );
  });

  it("plans one data-loss-risk delete per snapshot beyond the retention, the same ones snapshot prune picks", async () => {
    const { plan } = await planSpec(lab.client, parseSpec(spec(RETAIN), "s.yaml"));
    const byGuest = Object.fromEntries(
      plan.guests.map((g) => [g.key, g.steps.map((s) => [s.action, s.severity, s.summary.match(/'([^']+)'/)?.[1]])]),
    );
    const expected = [
      ["snapshot-delete", "data-loss-risk", "auto-1"],
      ["snapshot-delete", "data-loss-risk", "auto-2"],
    ];
    assert.deepEqual(byGuest, { keep430: expected, other431: [], ct432: expected });
    const prune = await planSnapshots(lab.client, { vmids: [430] }, { action: "prune", retention: { keep: 2, prefix: "auto-" } });
    assert.deepEqual(
      prune.plan.guests[0]!.steps.map((s) => s.summary),
      plan.guests[0]!.steps.map((s) => s.summary),
    );
  });

  it("apply holds the deletes back without allowDataLoss, and runs them with it; other snapshots and guests stay", async () => {
    const held = await applyPlan(lab.client, (await planSpec(lab.client, parseSpec(spec(RETAIN), "s.yaml"))).plan, fastApply);
    assert.equal(held.guests[0]!.result, "skipped");
    assert.equal((await names(430)).length, 5);
    const done = await applyPlan(lab.client, (await planSpec(lab.client, parseSpec(spec(RETAIN), "s.yaml"))).plan, {
      ...fastApply,
      allowDataLoss: true,
    });
    assert.equal(done.ok, true);
    assert.deepEqual(await names(430), ["hand", "auto-3", "auto-4"]);
    assert.deepEqual(await names(432, "lxc"), ["hand", "auto-3", "auto-4"]);
    assert.equal((await names(431)).length, 5, "a guest without snapshots: keeps all of them");
    const again = await planSpec(lab.client, parseSpec(spec(RETAIN), "s.yaml"));
    assert.deepEqual(
      again.plan.guests.flatMap((g) => g.steps),
      [],
      "converged: apply never creates a snapshot",
    );
  });

  it("refuses a retention without a prefix, or with a prefix no snapshot name can start with", () => {
    assert.throws(() => parseSpec(spec(", snapshots: { keep: 2 }"), "s.yaml"), /prefix/);
    assert.throws(() => parseSpec(spec(", snapshots: { keep: 2, prefix: 1x }"), "s.yaml"), /prefix/);
    assert.throws(() => parseSpec(spec(", snapshots: { keep: -1, prefix: a }"), "s.yaml"), /keep/);
  });
});
