// A migration whose answer is lost is resolved by reading where the guest is (and waiting for
// the migration task the first request started), never by sending it again.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { listedGuest } from "../support/placement.js";

const spec = (node: string) => `
vms:
  - vmid: 710
    name: lost-mig
    node: ${node}
    power: running
    disks:
      scsi0: { storage: local-lvm, size: 1G }
`;

describe("a migration's lost answer", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    assert.equal((await applyPlan(lab.client, await planSpec(lab.client, parseSpec(spec("pve1"), "t.yaml")), fastApply)).ok, true);
  });
  after(async () => lab.close());

  it("is read back: one migration task, the guest on the target, the record written", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/710/migrate$", dropResponse: true, times: 1 });
    const report = await applyPlan(lab.client, await planSpec(lab.client, parseSpec(spec("pve2"), "t.yaml")), fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    const listed = await listedGuest(lab, 710);
    assert.equal(listed?.node, "pve2");
    assert.ok(listed?.tags?.split(";").includes("pvectl-node.pve2"));
    const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 710, typefilter: "qmigrate", source: "all" })) as unknown[];
    assert.equal(tasks.length, 1, "sent once");
  });
});
