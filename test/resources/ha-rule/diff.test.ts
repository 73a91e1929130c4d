// HA rules from a spec file to a plan, against a given cluster: only the keys the spec names are
// compared (in PVE's own spelling, whatever order the spec writes them in), pvectl's rules leave
// when the spec drops them, a foreign rule is refused unless adopted, and PVE's refusals (a guest
// that is not an HA resource, an unknown node, a type change, keys of the other rule type) are
// said before anything runs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planHaRules } from "../../../src/resources/ha-rule/diff.js";
import type { DesiredHaRules, LiveHaRule } from "../../../src/resources/ha-rule/model.js";
import { liveRule } from "../../../src/resources/ha-rule/read.js";
import { parseSpec, SpecError } from "../../../src/sources/spec/index.js";
import { plannedParams } from "../../../src/plan/resolve-call.js";

const SPEC = `
haRules:
  - rule: db-on-pve1
    type: node-affinity
    resources: [vm:101, vm:100]
    nodes: { pve2: 1, pve1: 2 }
    strict: true
    comment: databases
  - rule: web-apart
    type: resource-affinity
    affinity: negative
    resources: [ct:200, ct:201]
`;

function desired(yaml: string): DesiredHaRules {
  const spec = parseSpec(yaml, "ha.yaml") as { haRules?: Array<{ desired: DesiredHaRules["rules"][number] }> };
  return { rules: (spec.haRules ?? []).map((r) => r.desired) };
}

const context = { haResources: new Set(["vm:100", "vm:101", "ct:200", "ct:201"]), nodes: ["pve1", "pve2", "pve3"] };

const live = (entry: Record<string, unknown>): LiveHaRule => liveRule({ rule: "x", ...entry } as never);

describe("HA rules: spec to plan", () => {
  it("creates each rule with PVE's spelling and pvectl's marker; containers make it service-impact", () => {
    const { objects } = planHaRules(desired(SPEC), [], context);
    const [db, web] = objects;
    const dbCall = db?.steps[0]?.calls[0];
    assert.ok(dbCall);
    assert.deepEqual(plannedParams(dbCall), {
      rule: "db-on-pve1",
      type: "node-affinity",
      resources: "vm:100,vm:101",
      nodes: "pve1:2,pve2:1",
      strict: "1",
      comment: "databases [pvectl]",
    });
    assert.equal(db?.steps[0]?.severity, "configuration");
    assert.equal(web?.steps[0]?.severity, "service-impact");
    assert.match(web?.steps[0]?.summary ?? "", /a container moves by restart/);
  });

  it("is empty against the rules it created, however PVE orders them", () => {
    const rules = [
      live({
        rule: "db-on-pve1",
        type: "node-affinity",
        resources: "vm:101,vm:100",
        nodes: "pve2:1,pve1:2",
        strict: 1,
        comment: "databases [pvectl]",
      }),
      live({ rule: "web-apart", type: "resource-affinity", affinity: "negative", resources: "ct:200,ct:201", comment: "[pvectl]" }),
    ];
    const { objects } = planHaRules(desired(SPEC), rules, context);
    assert.deepEqual(
      objects.map((o) => o.steps.length),
      [0, 0],
    );
  });

  it("updates only what the spec names, sending the rule's type as PVE wants", () => {
    const rules = [
      live({
        rule: "db-on-pve1",
        type: "node-affinity",
        resources: "vm:100,vm:101",
        nodes: "pve1:2,pve3",
        strict: 1,
        disable: 1,
        comment: "databases [pvectl]",
      }),
    ];
    const [db] = planHaRules(desired(SPEC), rules, context).objects;
    const call = db?.steps[0]?.calls[0];
    assert.ok(call);
    assert.deepEqual(plannedParams(call), { type: "node-affinity", nodes: "pve1:2,pve2:1" });
    assert.deepEqual(db?.steps[0]?.changes, [{ field: "nodes", before: "pve1:2,pve3", after: "pve1:2,pve2:1" }]);
  });

  it("deletes pvectl's rules the spec dropped and leaves foreign ones alone", () => {
    const rules = [
      live({ rule: "old", type: "node-affinity", resources: "vm:100", nodes: "pve1", comment: "[pvectl]" }),
      live({ rule: "theirs", type: "node-affinity", resources: "vm:100", nodes: "pve2" }),
    ];
    const { objects } = planHaRules({ rules: [] }, rules, context);
    assert.equal(objects[0]?.steps[0]?.action, "object-delete");
    assert.equal(objects[1]?.foreign, true);
    assert.equal(objects[1]?.steps.length, 0);
  });

  it("refuses a foreign rule of a spec id unless adopted, then adopts it with the marker", () => {
    const rules = [
      live({
        rule: "db-on-pve1",
        type: "node-affinity",
        resources: "vm:100,vm:101",
        nodes: "pve1:2,pve2:1",
        strict: 1,
        comment: "databases",
      }),
    ];
    const refused = planHaRules(desired(SPEC), rules, context);
    assert.match(refused.refused[0]?.message ?? "", /not created by pvectl.*adopt: true/);
    const adopted = planHaRules(desired(SPEC.replace("comment: databases", "comment: databases\n    adopt: true")), rules, context);
    assert.match(adopted.objects[0]?.steps[0]?.summary ?? "", /adopt HA rule db-on-pve1/);
  });

  it("says what PVE would refuse: unmanaged guests, unknown nodes, a changed type", () => {
    const narrow = { haResources: new Set(["vm:100"]), nodes: ["pve1"] };
    const [db] = planHaRules(desired(SPEC), [], narrow).objects;
    assert.equal(db?.steps.length, 0);
    assert.match(db?.errors[0] ?? "", /names vm:101, which is not an HA resource/);
    assert.match(db?.errors[1] ?? "", /names node pve2, which the cluster does not have/);
    const typed = planHaRules(
      desired(SPEC),
      [live({ rule: "web-apart", type: "node-affinity", resources: "ct:200,ct:201", nodes: "pve1", comment: "[pvectl]" })],
      context,
    );
    assert.match(typed.objects[1]?.errors[0] ?? "", /cannot change a rule's type/);
  });

  it("refuses keys of the other rule type at their line", () => {
    const bad = `
haRules:
  - rule: mixed
    type: resource-affinity
    resources: [vm:100]
    nodes: { pve1: 1 }
`;
    assert.throws(
      () => parseSpec(bad, "ha.yaml"),
      (err: unknown) =>
        err instanceof SpecError &&
        err.issues.some((i) => /`nodes` goes with `type: node-affinity` only/.test(i.message)) &&
        err.issues.some((i) => /needs `affinity: positive`/.test(i.message)) &&
        err.issues.some((i) => /relates two or more resources/.test(i.message)),
    );
  });
});
