// The final read-back of apply re-plans what the run changed with the planner's own reads: pool
// membership, tags, power, the pending section and access objects are all verified, steps the
// guard rails held back are expected to be left, and anything else left is "not converged".
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const VERIFY = { verifyConvergence: true };

const POOLED = (cores: number, pool = "prod", tags = "[web]") => `vms:
  - vmid: 610
    name: pooled
    node: pve1
    memory: 512
    cores: ${cores}
    power: running
    pool: ${pool}
    tags: ${tags}
`;

const ROLE = `access:
  roles:
    - id: ReadBack
      privileges: [VM.Audit]
`;

describe("apply's final read-back", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    for (const poolid of ["prod", "dev"]) await lab.client.request("POST", "/pools", { poolid });
  });
  after(async () => lab.close());

  it("a guest created into a pool, then moved to another with new tags, is ok (not 'join pool')", async () => {
    const created = await converge(lab, POOLED(1), VERIFY);
    assert.equal(created.report.ok, true, JSON.stringify(created.report.guests.map((g) => g.error)));
    assert.equal(created.report.guests[0]!.result, "created");
    const moved = await converge(lab, POOLED(1, "dev", "[web, db]"), VERIFY);
    assert.deepEqual(moved.plan.guests[0]!.steps.map((s) => s.action).sort(), ["config", "pool"]);
    assert.equal(moved.report.ok, true, JSON.stringify(moved.report.guests.map((g) => g.error)));
    assert.equal(moved.report.guests[0]!.result, "changed");
  });

  it("a change deferred to the next reboot is pending, not 'not converged'", async () => {
    const { report } = await converge(lab, POOLED(2, "dev", "[web, db]"), { ...VERIFY, deferRestart: true });
    const guest = report.guests[0]!;
    assert.equal(guest.error, undefined);
    assert.equal(guest.result, "changed");
    assert.equal(guest.pending.length, 1);
    assert.deepEqual(guest.pendingReboot, ["cores"]);
  });

  it("a pooled guest changed by someone else during the run is not converged (its pool is read back too)", async () => {
    const planned = await planSpec(lab.client, parseSpec(POOLED(2, "prod", "[web, db]"), "test.yaml"));
    const report = await applyPlan(lab.client, planned, {
      ...fastApply,
      ...VERIFY,
      allowRestart: true,
      onEvent: (e) => {
        // Someone takes the guest out of its pool right after this run put it there.
        if (e.type === "step-done" && e.step.action === "pool") void lab.client.request("PUT", "/pools/prod", { vms: "610", delete: 1 });
      },
    });
    assert.equal(report.ok, false);
    assert.match(report.guests[0]!.error ?? "", /^not converged: the guest does not match the spec after this run \(join pool prod\)/);
    assert.equal(report.guests[0]!.result, "partial");
  });

  it("an access object changed by someone else during the run is not converged", async () => {
    const planned = await planSpec(lab.client, parseSpec(ROLE, "test.yaml"));
    const report = await applyPlan(lab.client, planned, {
      ...fastApply,
      ...VERIFY,
      onObjectEvent: (e) => {
        if (e.type === "object-step-done") void lab.client.request("PUT", "/access/roles/ReadBack", { privs: "VM.Audit,VM.Console" });
      },
    });
    assert.equal(report.ok, false);
    const role = report.objects?.find((o) => o.key === "ReadBack");
    assert.match(role?.error ?? "", /^not converged: access-role ReadBack does not match the spec after this run \(/);
  });
});
