import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan, planData } from "../../src/engine/plan.js";
import { ChangedSincePlanError } from "../../src/engine/step-runner.js";
import { checkSavedPlan, loadPlan, SavedPlanError, savePlan } from "../../src/engine/saved-plan.js";
import { desired, fastApply, type Lab, startLab } from "./helpers.js";

const SPEC = (memory: string) => `
vms:
  - vmid: 220
    name: saved1
    node: pve1
    memory: ${memory}
    disks:
      scsi0: { storage: local-lvm, size: 2G }
`;

describe("saved plans", () => {
  let lab: Lab;
  let dir: string;
  before(async () => {
    lab = await startLab();
    dir = mkdtempSync(join(tmpdir(), "pvectl-plan-"));
    const plan = await buildPlan(lab.client, desired(SPEC("512")));
    assert.equal((await applyPlan(lab.client, plan, fastApply)).ok, true);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await lab.close();
  });

  it("applies a saved plan when the guest is unchanged", async () => {
    const file = join(dir, "ok.json");
    await savePlan(file, { specFiles: ["spec.yaml"], plan: planData(await buildPlan(lab.client, desired(SPEC("1024")))) });
    const saved = await loadPlan(file);
    const { problems } = await checkSavedPlan(lab.client, saved.plan);
    assert.deepEqual(problems, []);
    const report = await applyPlan(lab.client, saved.plan, fastApply);
    assert.equal(report.guests[0]!.result, "changed");
  });

  it("refuses a saved plan when the guest's config digest changed since", async () => {
    const file = join(dir, "stale.json");
    await savePlan(file, { specFiles: ["spec.yaml"], plan: planData(await buildPlan(lab.client, desired(SPEC("2048")))) });
    await lab.client.request("PUT", "/nodes/pve1/qemu/220/config", { description: "changed by someone else" });
    const saved = await loadPlan(file);
    const { problems } = await checkSavedPlan(lab.client, saved.plan);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^saved1 \(vmid 220\) changed since the plan \(config digest [0-9a-f]{12} is now [0-9a-f]{12}\)$/);
    assert.match(new SavedPlanError(file, problems).userMessage(), /Run `pvectl plan --out FILE` again/);
  });

  it("PVE itself refuses the first write when the digest changed between the check and the write", async () => {
    const plan = await buildPlan(lab.client, desired(SPEC("4096")));
    await lab.client.request("PUT", "/nodes/pve1/qemu/220/config", { description: "changed again" });
    const report = await applyPlan(lab.client, plan, fastApply);
    const guest = report.guests[0]!;
    assert.equal(guest.result, "failed");
    assert.equal(guest.error, `change memory: ${new ChangedSincePlanError("saved1").message}`);
    const config = (await lab.client.request("GET", "/nodes/pve1/qemu/220/config")) as { memory: string | number };
    assert.equal(String(config.memory), "1024", "the stale plan changed nothing");
  });

  it("says what is wrong with a file that is not a plan", async () => {
    await assert.rejects(loadPlan(join(dir, "missing.json")), (err: SavedPlanError) => {
      assert.match(err.userMessage(), /^the saved plan .*missing\.json cannot be applied:\n {2}- no such file\n/);
      return true;
    });
  });
});
