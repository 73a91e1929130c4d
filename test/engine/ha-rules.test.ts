// HA rules as desired state against the simulator's PVE 9 HA stack: a rule over HA resources is
// created with pvectl's marker and honoured (the HA manager moves the guest to the preferred
// node), a second plan is empty, a rule over a guest HA does not manage is refused before
// anything is sent, and a rule the spec drops is deleted.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { planHasChanges } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

const RULES = (node: string) => `
haRules:
  - rule: db-home
    type: node-affinity
    resources: [vm:100]
    nodes: { ${node}: 2 }
    comment: database
`;

describe("HA rules against the simulator's HA manager", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 100, name: "db", memory: 512 });
    await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 101, name: "web", memory: 512 });
    await lab.client.request("POST", "/cluster/ha/resources", { sid: "vm:100", state: "started" });
  });
  after(() => lab.close());

  const plan = (yaml: string) => planSpec(lab.client, parseSpec(yaml, "ha.yaml"));
  const node = async (vmid: number) =>
    ((await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; node: string }>).find(
      (g) => g.vmid === vmid,
    )?.node;

  it("creates a marked rule the HA manager honours, and a second plan is empty", async () => {
    const first = await plan(RULES("pve2"));
    assert.equal(first.plan.objects?.[0]?.steps[0]?.action, "object-create");
    const report = await applyPlan(lab.client, first, fastApply);
    assert.ok(report.ok, JSON.stringify(report));
    const rule = (await lab.client.request("GET", "/cluster/ha/rules/db-home")) as Record<string, unknown>;
    assert.equal(rule.comment, "database [pvectl]");
    assert.equal(rule.nodes, "pve2:2");
    for (let i = 0; i < 200 && (await node(100)) !== "pve2"; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await node(100), "pve2", "the HA manager moved the guest to the rule's node");
    assert.equal(planHasChanges((await plan(RULES("pve2"))).plan), false);
  });

  it("refuses a rule over a guest HA does not manage, before anything is sent", async () => {
    const planned = await plan(RULES("pve2").replace("[vm:100]", "[vm:100, vm:101]"));
    const rule = planned.plan.objects?.find((o) => o.key === "db-home");
    assert.match(rule?.errors[0] ?? "", /names vm:101, which is not an HA resource/);
    assert.equal(rule?.steps.length, 0);
  });

  it("deletes pvectl's rule the spec dropped", async () => {
    const planned = await plan("haRules: []\n");
    assert.equal(planned.plan.objects?.[0]?.steps[0]?.action, "object-delete");
    assert.ok((await applyPlan(lab.client, planned, fastApply)).ok);
    assert.deepEqual(await lab.client.request("GET", "/cluster/ha/rules"), []);
  });
});
