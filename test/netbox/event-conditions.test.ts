// Event-rule conditions in the NetBox simulator, as NetBox evaluates them: a webhook fires only
// for objects its rule's conditions hold for. Example rules cover each operator and NetBox's
// type rules; properties check the logic (and/or/negate) against plain boolean algebra; and
// python3-pynetbox, a client nobody here wrote, saves a rule with conditions and sees only the
// matching VM delivered, while a malformed rule is refused with NetBox's message.
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { compileConditions, conditionsHold } from "../../src/netbox/sim/conditions.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";

const VM = {
  id: 7,
  name: "web-01",
  status: { value: "planned", label: "Planned" },
  vcpus: 2,
  memory: 2048,
  tags: [
    { id: 1, slug: "web", name: "web" },
    { id: 2, slug: "production", name: "production" },
  ],
  custom_fields: { proxmox_vmid: null, owner: "team-a" },
};

function holds(conditions: unknown, data: unknown = VM): boolean {
  const compiled = compileConditions(conditions);
  assert.ok(compiled.ok, `conditions refused: ${compiled.ok ? "" : compiled.message}`);
  return conditionsHold(compiled.conditions, data);
}

function refusal(conditions: unknown): string {
  const compiled = compileConditions(conditions);
  assert.ok(!compiled.ok, "conditions were accepted");
  return compiled.message;
}

describe("event-rule conditions", () => {
  test("each operator on the object as the REST API serialises it", () => {
    assert.equal(holds({ attr: "status.value", value: "planned" }), true);
    assert.equal(holds({ attr: "status.value", value: "active" }), false);
    assert.equal(holds({ attr: "status.value", value: "active", negate: true }), true);
    assert.equal(holds({ attr: "vcpus", op: "gte", value: 2 }), true);
    assert.equal(holds({ attr: "vcpus", op: "gt", value: 2 }), false);
    assert.equal(holds({ attr: "memory", op: "lt", value: 4096.5 }), true);
    assert.equal(holds({ attr: "status.value", op: "in", value: ["planned", "staged"] }), true);
    // a key over a list maps across its items: tags.slug is ["web", "production"]
    assert.equal(holds({ attr: "tags.slug", op: "contains", value: "production" }), true);
    assert.equal(holds({ attr: "tags.slug", op: "contains", value: "db" }), false);
    assert.equal(holds({ attr: "name", op: "contains", value: "eb-" }), true);
    // re.match anchors at the start only
    assert.equal(holds({ attr: "name", op: "regex", value: "web-\\d+" }), true);
    assert.equal(holds({ attr: "name", op: "regex", value: "\\d+" }), false);
    assert.equal(holds({ attr: "custom_fields.proxmox_vmid", value: null }), true);
    // Python's ==: True == 1
    assert.equal(holds({ attr: "flag", value: 1 }, { flag: true }), true);
  });

  test("sets: and, or (any case), nesting, a bare condition", () => {
    const planned = { attr: "status.value", value: "planned" };
    const web = { attr: "tags.slug", op: "contains", value: "web" };
    const db = { attr: "tags.slug", op: "contains", value: "db" };
    assert.equal(holds({ and: [planned, web] }), true);
    assert.equal(holds({ and: [planned, db] }), false);
    assert.equal(holds({ OR: [db, planned] }), true);
    assert.equal(holds({ and: [planned, { or: [db, { attr: "vcpus", value: 2 }] }] }), true);
  });

  test("a condition that cannot be evaluated makes the rule not match", () => {
    assert.equal(holds({ attr: "status.nope", value: "x" }), false, "missing key");
    assert.equal(holds({ attr: "name.value", value: "x" }), false, "a path through a string");
    assert.equal(holds({ attr: "name", op: "gt", value: 1 }), false, "a string compared with a number");
    assert.equal(holds({ attr: "status.nope", value: "x", negate: true }), false, "negation does not rescue an invalid path");
    // `or` stops at the first error, as Python's any() over a raising generator does
    assert.equal(
      holds({
        or: [
          { attr: "nope", value: 1 },
          { attr: "vcpus", value: 2 },
        ],
      }),
      false,
    );
    assert.equal(
      holds({
        or: [
          { attr: "vcpus", value: 2 },
          { attr: "nope", value: 1 },
        ],
      }),
      true,
    );
  });

  test("malformed conditions are refused with NetBox's messages", () => {
    assert.equal(refusal([]), "Ruleset must be a dictionary, not <class 'list'>.");
    assert.equal(refusal({ xor: [] }), "Invalid logic type: must be 'AND' or 'OR'. Please check documentation.");
    assert.equal(refusal({ attr: "name", value: "x", colour: "red" }), "Incorrect key(s) informed. Please check documentation.");
    assert.match(refusal({ attr: "name", op: "like", value: "x" }), /^Unknown operator: like\. Must be one of: eq, gt/);
    assert.equal(refusal({ attr: "name", op: "gt", value: "x" }), "Invalid type for gt operation: <class 'str'>");
    assert.equal(refusal({ attr: "name", value: { a: 1 } }), "Unsupported value type: <class 'dict'>");
    assert.equal(refusal({ attr: "name", op: "regex" }), "A value is required for the 'regex' operator.");
    assert.match(refusal({ attr: "status", op: "changed" }), /does not evaluate the snapshot operator 'changed'/);
  });

  const leaf = fc.record({
    attr: fc.constantFrom("vcpus", "memory"),
    value: fc.integer({ min: 0, max: 4096 }),
    op: fc.constantFrom("eq", "gt", "gte", "lt", "lte"),
  });
  const object = fc.record({ vcpus: fc.integer({ min: 0, max: 8 }), memory: fc.constantFrom(0, 1024, 2048, 4096) });

  test("and, or and negate follow boolean algebra on conditions that evaluate", () => {
    fc.assert(
      fc.property(fc.array(leaf, { minLength: 1, maxLength: 4 }), object, fc.boolean(), (leaves, data, negate) => {
        const each = leaves.map((l) => holds(l, data));
        assert.equal(holds({ and: leaves }, data), each.every(Boolean));
        assert.equal(holds({ or: leaves }, data), each.some(Boolean));
        const first = leaves[0] as (typeof leaves)[number];
        assert.equal(holds({ ...first, negate }, data), negate ? !each[0] : each[0]);
      }),
      { numRuns: 300 },
    );
  });
});

const PYTHON = "/usr/bin/python3";
const noPynetbox = spawnSync(PYTHON, ["-c", "import pynetbox"]).status !== 0 ? "python3-pynetbox is not installed" : false;

describe("a rule with conditions, saved and triggered through pynetbox", { skip: noPynetbox }, () => {
  let nb: NetboxSimulator;
  before(async () => {
    nb = await startNetboxSimulator({ seed: "demo" });
  });
  after(async () => {
    await nb.close();
  });

  test("only the VM the conditions hold for is delivered; a malformed rule is refused", async () => {
    const script = `
import json, sys, pynetbox
nb = pynetbox.api(sys.argv[1], token=sys.argv[2])
hook = nb.extras.webhooks.create(name="pvectl", payload_url="http://127.0.0.1:9/webhook")
nb.extras.event_rules.create(name="planned web VMs", object_types=["virtualization.virtualmachine"],
    event_types=["object_created"], action_type="webhook", action_object_type="extras.webhook", action_object_id=hook.id,
    conditions={"and": [{"attr": "status.value", "value": "planned"}, {"attr": "name", "op": "regex", "value": "web-"}]})
cluster = nb.virtualization.clusters.get(name="pve-lab")
ids = {}
for name, status in [("web-11", "planned"), ("web-12", "active"), ("db-11", "planned")]:
    ids[name] = nb.virtualization.virtual_machines.create(name=name, status=status, cluster=cluster.id).id
try:
    nb.extras.event_rules.create(name="bad", object_types=["virtualization.virtualmachine"], event_types=["object_created"],
        action_type="webhook", action_object_type="extras.webhook", action_object_id=hook.id,
        conditions={"attr": "vcpus", "op": "regex", "value": 2})
    refused = None
except pynetbox.RequestError as e:
    refused = e.error
print(json.dumps({"ids": ids, "refused": refused}))
`;
    const { stdout } = await promisify(execFile)(PYTHON, ["-c", script, nb.url, nb.token]);
    const out = JSON.parse(stdout) as { ids: Record<string, number>; refused: string | null };
    await nb.admin.webhooksIdle();
    assert.deepEqual(
      nb.admin.webhookDeliveries.map((d) => d.id),
      [out.ids["web-11"]],
      "only the planned web VM is delivered",
    );
    assert.match(String(out.refused), /Invalid type for regex operation: <class 'int'>/);
  });
});
