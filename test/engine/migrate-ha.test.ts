// A guest HA manages (its spec has no `ha:` yet): pvectl never migrates it and makes no power
// call on it. A spec that would change its power or node is a plan error naming the HA resource;
// a guest HA moved stays a warning, and apply moves nothing back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { addHaResource, listedGuest, migrateBehindOurBack } from "../support/placement.js";

const spec = (node: string, power: string) => `
vms:
  - vmid: 510
    name: ha-web
    node: ${node}
    power: ${power}
    memory: 1024
    disks:
      scsi0: { storage: shared, size: 4G }
`;

function plan(lab: Lab, yaml: string) {
  return planSpec(lab.client, parseSpec(yaml, "test.yaml"));
}

describe("guests HA manages", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    assert.equal((await applyPlan(lab.client, await plan(lab, spec("pve1", "running")), fastApply)).ok, true);
    await addHaResource(lab, "vm:510", "started");
  });
  after(async () => lab.close());

  it("reads the HA state into the live guest and plans nothing when the spec agrees", async () => {
    const planned = await plan(lab, spec("pve1", "running"));
    assert.deepEqual(planned.context.live.get(510)?.ha, { sid: "vm:510", state: "started" });
    assert.deepEqual(planned.plan.guests[0]!.steps, []);
    assert.deepEqual(planned.plan.guests[0]!.errors, []);
  });

  it("refuses a power change, naming the HA resource and its requested state", async () => {
    const guest = (await plan(lab, spec("pve1", "stopped"))).plan.guests[0]!;
    assert.deepEqual(guest.steps, []);
    assert.equal(guest.errors.length, 1);
    assert.match(guest.errors[0]!, /HA manages it as vm:510 \(requested state: started\).*ha-manager set vm:510 --state stopped/);
  });

  it("refuses a node change: HA owns its placement", async () => {
    const guest = (await plan(lab, spec("pve2", "running"))).plan.guests[0]!;
    assert.deepEqual(guest.steps, []);
    assert.match(guest.errors.join("\n"), /vm:510 .*pvectl does not migrate an HA resource.*ha-manager migrate vm:510 pve2/);
  });

  it("after HA recovered it elsewhere: only the placement warning, and apply moves nothing back", async () => {
    await migrateBehindOurBack(lab, "qemu", 510, "pve1", "pve3");
    const planned = await plan(lab, spec("pve1", "running"));
    const guest = planned.plan.guests[0]!;
    assert.deepEqual(guest.steps, []);
    assert.deepEqual(guest.errors, []);
    assert.deepEqual(planned.plan.preflightErrors, []);
    assert.equal(guest.warnings.length, 1);
    assert.match(guest.warnings[0]!, /runs on pve3, the spec says pve1: HA manages it as vm:510/);
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.equal(report.ok, true);
    assert.deepEqual(report.guests[0]!.steps, []);
    assert.equal((await listedGuest(lab, 510))?.node, "pve3");
  });
});
