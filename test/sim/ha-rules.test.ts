// PVE 9's HA rules: what the API stores and shows, what it refuses (unknown nodes, unmanaged
// resources, a rule the feasibility checks reject), and the manager placing resources by node
// affinity (highest priority online node, failback, or staying put with failback off) and
// resource affinity (blocking and co-migrated resources in the migrate answer).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadClusterModel } from "../../src/sim/cluster/index.js";
import { Harness, rejects } from "./guests-harness.js";

type Row = Record<string, unknown>;

async function lab(vmids: number[] = [100, 101, 102]): Promise<Harness> {
  const h = new Harness({ nodes: 3 });
  for (const vmid of vmids) {
    await h.createVm(vmid, { scsi0: "local-lvm:1" });
    await h.call("POST", "/cluster/ha/resources", { sid: `vm:${vmid}` });
  }
  return h;
}

function failNode(h: Harness, node: string, online: boolean): Promise<void> {
  h.model.setNodeOnline(node, online);
  h.model.nodeLivenessChanged({ start: (o) => h.startTaskForTest(o) });
  return h.runTasks();
}

describe("HA rules: configuration", () => {
  it("stores node-affinity and resource-affinity rules as PVE writes them and lists them in file order", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/rules", {
      rule: "web-on-2",
      type: "node-affinity",
      resources: "vm:101,vm:100",
      nodes: "pve2:2,pve1:2",
      strict: 1,
    });
    await h.call("POST", "/cluster/ha/rules", {
      rule: "apart",
      type: "resource-affinity",
      resources: "vm:100,vm:102",
      affinity: "negative",
      disable: 0,
    });
    const rules = (await h.call("GET", "/cluster/ha/rules")) as Row[];
    assert.deepEqual(
      rules.map(({ digest, ...r }) => r),
      [
        { rule: "web-on-2", type: "node-affinity", resources: "vm:100,vm:101", nodes: "pve1:2,pve2:2", strict: 1, order: 1 },
        { rule: "apart", type: "resource-affinity", resources: "vm:100,vm:102", affinity: "negative", order: 2 },
      ],
    );
    assert.deepEqual(
      ((await h.call("GET", "/cluster/ha/rules", { resource: "vm:102" })) as Row[]).map((r) => r.rule),
      ["apart"],
    );
    await rejects(h.call("GET", "/cluster/ha/rules/nope"), 500, "no such ha rule 'nope'");
    // one priority only: a node-affinity rule with several would make the affinity rule infeasible
    await rejects(
      h.call("PUT", "/cluster/ha/rules/web-on-2", { type: "node-affinity", nodes: "pve2:2,pve1" }),
      500,
      "update HA rules failed: 400 Rule 'web-on-2' is invalid.\nresources: resources are in a resource affinity rule and cannot be in a node affinity rule with multiple priorities",
    );
    // deleting a resource (purge is the default) takes it out of its rules; an emptied rule goes
    await h.call("DELETE", "/cluster/ha/resources/vm:102");
    const apart = (await h.call("GET", "/cluster/ha/rules/apart")) as Row;
    assert.equal(apart.resources, "vm:100");
    // a rule made infeasible from outside keeps its place and shows why (the manager ignores it)
    assert.deepEqual(apart.errors, { resources: ["rule is ineffective as there are less than two resources"] });
  });

  it("refuses unknown nodes, unmanaged resources, duplicates and a rule that cannot hold", async () => {
    const h = await lab();
    const create = (params: Record<string, string | number>) => h.call("POST", "/cluster/ha/rules", params);
    await rejects(
      create({ rule: "r1", type: "node-affinity", resources: "vm:100", nodes: "pve9,pve1" }),
      500,
      "create ha rule failed: cannot use non-existent node(s) pve9.",
    );
    await rejects(
      create({ rule: "r1", type: "node-affinity", resources: "vm:100,vm:555", nodes: "pve1" }),
      500,
      "create ha rule failed: cannot use unmanaged resource(s) vm:555.",
    );
    await rejects(create({ rule: "r1", type: "node-affinity", resources: "vm:100" }), 500, "missing value for required option 'nodes'");
    await create({ rule: "r1", type: "node-affinity", resources: "vm:100", nodes: "pve1" });
    await rejects(
      create({ rule: "r1", type: "node-affinity", resources: "vm:101", nodes: "pve1" }),
      500,
      "create ha rule failed: HA rule 'r1' already defined",
    );
    await rejects(
      create({ rule: "r2", type: "node-affinity", resources: "vm:100", nodes: "pve2" }),
      500,
      "create ha rule failed: 400 Rule 'r2' is invalid.\nresources: resource 'vm:100' is already used in another node affinity rule",
    );
    await rejects(
      create({ rule: "lonely", type: "resource-affinity", resources: "vm:100", affinity: "positive" }),
      500,
      "create ha rule failed: 400 Rule 'lonely' is invalid.\nresources: rule is ineffective as there are less than two resources",
    );
    // a disabled rule is not checked against the others, nor are the others against it
    await create({ rule: "r2", type: "node-affinity", resources: "vm:100", nodes: "pve2", disable: 1 });
    assert.equal(((await h.call("GET", "/cluster/ha/rules/r1")) as Row).errors, undefined);
  });
});

describe("HA groups on PVE 9", () => {
  it("are refused: groups have been migrated to rules", async () => {
    const h = await lab([100]);
    await rejects(h.call("GET", "/cluster/ha/groups"), 500, "cannot index groups: ha groups have been migrated to rules");
    await rejects(
      h.call("POST", "/cluster/ha/groups", { group: "g1", nodes: "pve1" }),
      500,
      "cannot create group: ha groups have been migrated to rules",
    );
  });
});

describe("HA rules: state files", () => {
  it("rules and the manager's view come back from a state file; a move in flight is not waited for", async () => {
    const h = await lab([100]);
    await h.call("POST", "/cluster/ha/rules", { rule: "home", type: "node-affinity", resources: "vm:100", nodes: "pve2" });
    const guest = h.model.guest(100);
    if (guest?.haService) guest.haService.inflight = "migrate";
    const saved = JSON.parse(JSON.stringify(h.model.toJSON()));
    const loaded = loadClusterModel(saved, { random: { next: () => 0.5, hex: (n) => "00".repeat(n) }, now: () => h.clock });
    assert.deepEqual(loaded.state.haRules, h.model.state.haRules);
    assert.equal(loaded.guest(100)?.haService?.inflight, undefined);
    assert.equal(loaded.guest(100)?.haService?.state, "started");
  });
});

describe("HA rules: placement", () => {
  it("node affinity moves a running VM to its highest-priority online node, fails back, and stays with failback off", async () => {
    const h = await lab([100, 101]);
    await h.call("PUT", "/cluster/ha/resources/vm:101", { failback: 0 });
    await h.call("POST", "/cluster/ha/rules", {
      rule: "prefer-2",
      type: "node-affinity",
      resources: "vm:100,vm:101",
      nodes: "pve2:2,pve3:1",
    });
    assert.equal(h.model.guest(100)?.node, "pve2");
    assert.equal(h.model.guest(101)?.node, "pve1", "failback off: stays where it is allowed");
    assert.equal(h.tasks.filter((t) => t.options.type === "qmigrate").length, 1);
    await failNode(h, "pve2", false);
    assert.equal(h.model.guest(100)?.node, "pve3", "recovered on the next priority");
    assert.equal(h.model.guest(100)?.status, "running");
    await failNode(h, "pve2", true);
    assert.equal(h.model.guest(100)?.node, "pve2", "failback to the preferred node");
    assert.equal(h.model.guest(101)?.node, "pve1");
  });

  it("a negative affinity partner on the target blocks a migration; positive partners move along", async () => {
    const h = await lab();
    await h.call("POST", "/cluster/ha/resources/vm:101/migrate", { node: "pve2" });
    await h.call("POST", "/cluster/ha/rules", {
      rule: "apart",
      type: "resource-affinity",
      resources: "vm:100,vm:101",
      affinity: "negative",
    });
    await h.call("POST", "/cluster/ha/rules", {
      rule: "pair",
      type: "resource-affinity",
      resources: "vm:100,vm:102",
      affinity: "positive",
    });
    const blocked = (await h.call("POST", "/cluster/ha/resources/vm:100/migrate", { node: "pve2" })) as Row;
    assert.deepEqual(blocked, {
      sid: "vm:100",
      "requested-node": "pve2",
      "comigrated-resources": ["vm:102"],
      "blocking-resources": [{ sid: "vm:101", cause: "resource-affinity" }],
    });
    assert.equal(h.model.guest(100)?.node, "pve1", "the manager ignores the blocked command");
    const pre = (await h.call("GET", "/nodes/pve1/qemu/100/migrate")) as Row;
    assert.deepEqual(pre["dependent-ha-resources"], ["vm:102"]);
    assert.deepEqual((pre.not_allowed_nodes as Row).pve2, { "blocking-ha-resources": [{ sid: "vm:101", cause: "resource-affinity" }] });
    await h.call("POST", "/cluster/ha/resources/vm:100/migrate", { node: "pve3" });
    assert.equal(h.model.guest(100)?.node, "pve3");
    assert.equal(h.model.guest(102)?.node, "pve3", "co-migrated");
  });
});
