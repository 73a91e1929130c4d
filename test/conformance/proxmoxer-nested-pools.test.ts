// Nested pools (PVE 8.1+: `parent/child`, three levels at most) as desired state: pvectl
// creates parents before children whatever the spec's order, puts a guest in a nested pool,
// deletes children before parents, keeps a parent whose child stays, and refuses a child
// without its parent or a fourth level. Debian's python3-proxmoxer reads the pools back as PVE
// lists them, and the simulator refuses what PVE refuses (a child before its parent, a parent
// that still holds a child).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { checkAccess } from "../../src/app/access.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { planHasErrors } from "../../src/plan/types.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply } from "../support/engine-lab.js";
import { PROXMOXER_PREAMBLE, runProxmoxerScript, proxmoxerSkip as skip } from "./proxmoxer.js";

const POOLS = (ids: string[], guest = true) => `
access:
  pools:
${ids.map((id) => `    - id: ${id}\n      comment: nested ${id}`).join("\n") || "    []"}
${
  guest
    ? `vms:
  - vmid: 340
    name: nested1
    node: pve1
    memory: 512
    pool: team/web/prod
`
    : ""
}`;

const READ_BACK = `${PROXMOXER_PREAMBLE}
out = {"pools": sorted(x["poolid"] for x in p.pools.get())}
out["prod"] = [m["vmid"] for m in p.pools.get(poolid="team/web/prod")[0]["members"]]
out["resources"] = [r.get("pool") for r in p.cluster.resources.get(type="vm") if r["vmid"] == 340]
try:
    p.pools.post(poolid="other/child")
    out["orphan"] = "created"
except Exception as e:
    out["orphan"] = str(e)
try:
    p.pools.delete(poolid="team")
    out["parent_delete"] = "deleted"
except Exception as e:
    out["parent_delete"] = str(e)
try:
    p.pools.post(poolid="a/b/c/d")
    out["deep"] = "created"
except Exception as e:
    out["deep"] = str(e)
print(json.dumps(out))
`;

describe("nested pools", { skip }, () => {
  let sim: RunningSimulator;
  let root: PveClient;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11 });
    root = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      ...(sim.fingerprint ? { fingerprint: sim.fingerprint } : {}),
    });
  });
  after(async () => {
    await root.close();
    await sim.close();
  });

  const plan = (text: string) => planSpec(root, parseSpec(text, "pools.yaml"));
  const poolSteps = (p: Awaited<ReturnType<typeof plan>>) =>
    (p.plan.objects ?? []).filter((o) => o.kind === "access-pool").flatMap((o) => o.steps.map((s) => s.summary));

  it("creates parents first whatever the spec's order, puts the guest in the nested pool, and proxmoxer reads them back", async () => {
    const planned = await plan(POOLS(["team/web/prod", "team", "team/web"]));
    assert.equal(planHasErrors(planned.plan), false, JSON.stringify(planned.plan.preflightErrors));
    assert.deepEqual(poolSteps(planned), ["create pool team", "create pool team/web", "create pool team/web/prod"]);
    const report = await applyPlan(root, planned, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report));
    const seen = await runProxmoxerScript(sim, READ_BACK);
    assert.deepEqual(seen.pools, ["team", "team/web", "team/web/prod"]);
    assert.deepEqual(seen.prod, [340]);
    assert.deepEqual(seen.resources, ["team/web/prod"]);
    assert.match(seen.orphan, /parent 'other' of pool 'other\/child' does not exist/);
    assert.match(seen.parent_delete, /pool 'team' is not empty \(contains pool 'team\/web'\)/);
    // proxmoxer drops PVE's per-parameter errors (it reads them from `data`); pvectl's client shows them.
    assert.equal(seen.deep, "400 Bad Request: Parameter verification failed.");
    await assert.rejects(root.request("POST", "/pools", { poolid: "a/b/c/d" }), (e: { paramErrors?: Record<string, string> }) =>
      /nested too deeply \(max levels = 3\)/.test(e.paramErrors?.poolid ?? ""),
    );
    const again = await plan(POOLS(["team/web/prod", "team", "team/web"]));
    assert.deepEqual(poolSteps(again), [], "converged");
  });

  it("an ACL entry on the parent pool reaches the guests of its children, for PVE and for access check", async () => {
    await root.request("POST", "/access/users", { userid: "nest@pve" });
    await root.request("PUT", "/access/acl", { path: "/pool/team", roles: "PVEVMUser", users: "nest@pve" });
    const dump = (await root.request("GET", "/access/permissions", { userid: "nest@pve" })) as Record<string, Record<string, number>>;
    assert.ok(dump["/vms/340"]?.["VM.PowerMgmt"] !== undefined, JSON.stringify(dump));
    const check = await checkAccess(root, parseSpec(POOLS(["team/web/prod", "team", "team/web"]), "pools.yaml"), "nest@pve");
    const onPool = check.missing.filter((m) => m.path === "/pool/team/web/prod").map((m) => m.privilege);
    assert.ok(onPool.length > 0 && !onPool.includes("VM.PowerMgmt") && !onPool.includes("VM.Audit"), JSON.stringify(check.missing));
    assert.ok(onPool.includes("VM.Allocate"), "PVEVMUser holds no VM.Allocate");
  });

  it("a child without its parent and a fourth level are refused before anything runs", async () => {
    const orphan = await plan(POOLS(["lab/x"], false));
    assert.ok(
      (orphan.plan.objects ?? []).some((o) =>
        o.errors.some((e) => /pool lab\/x: its parent pool lab does not exist and access\.pools does not create it/.test(e)),
      ),
      JSON.stringify(orphan.plan.objects),
    );
    assert.throws(() => parseSpec(POOLS(["a/b/c/d"], false), "deep.yaml"), /a\/b\/c\/d/);
    assert.throws(
      () => parseSpec(`vms:\n  - { vmid: 341, name: n, node: pve1, pool: "a/b/c/d" }\n`, "deep.yaml"),
      /nested up to three levels/,
    );
  });

  it("deletes children first; a parent whose child is not pvectl's is kept", async () => {
    await root.request("POST", "/pools", { poolid: "team/ops" }); // made by hand: not pvectl's
    await root.waitForTask(String(await root.request("DELETE", "/nodes/pve1/qemu/340", { purge: 1 })));
    const planned = await plan(POOLS([], false));
    assert.equal(planHasErrors(planned.plan), false, JSON.stringify(planned.plan));
    const report = await applyPlan(root, planned, fastApply);
    assert.equal(report.ok, true, JSON.stringify(report.objects));
    const steps = poolSteps(planned);
    assert.ok(
      steps.indexOf("delete pool team/web/prod (pvectl's, empty, no longer in the spec)") <
        steps.indexOf("delete pool team/web (pvectl's, empty, no longer in the spec)"),
      steps.join("; "),
    );
    assert.ok(!steps.some((s) => s.startsWith("delete pool team ")), steps.join("; "));
    const kept = (planned.plan.objects ?? []).find((o) => o.key === "team");
    assert.match(JSON.stringify(kept), /its child pool team\/ops stays: it is kept/);
    const left = ((await root.request("GET", "/pools")) as Array<{ poolid: string }>).map((p) => p.poolid).sort();
    assert.deepEqual(left, ["team", "team/ops"]);
  });
});
