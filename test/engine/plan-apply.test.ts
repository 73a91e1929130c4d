import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { TWO_WEB } from "./specs.js";

describe("plan and apply against the simulator", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("plans creates, applies them, and the second plan is empty", async () => {
    const vms = desired(TWO_WEB);
    const { plan, context } = await buildPlan(lab.client, vms);
    assert.deepEqual(plan.preflightErrors, []);
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.steps.map((s) => s.action)]),
      [
        ["web1", ["create"]],
        ["web2", ["create"]],
      ],
    );
    const report = await applyPlan(lab.client, plan, { ...fastApply, cluster: context.cluster });
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    const web1 = report.guests.find((g) => g.key === "web1")!;
    assert.equal(web1.result, "created");
    assert.equal(web1.vmid, 201);
    assert.match(web1.macs.net0 ?? "", /^BC:24:11(:[0-9A-F]{2}){3}$/);
    assert.equal(web1.volumes.scsi0, "local-lvm:vm-201-disk-0");

    const { plan: again } = await buildPlan(lab.client, vms);
    assert.deepEqual(
      again.guests.map((g) => [g.key, g.steps.map((s) => s.summary), g.errors]),
      [
        ["web1", [], []],
        ["web2", [], []],
      ],
    );
  });
});
