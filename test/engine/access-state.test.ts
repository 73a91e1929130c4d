// Access as desired state (#16): roles, groups, users, tokens, ACL entries and pools planned
// and applied against the simulator's /access and /pools, with pvectl's marker, adoption,
// service-impact removals and the one-time token secret.
import assert from "node:assert/strict";
import { access, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { recomputeSavedPlan } from "../../src/app/saved-plan.js";
import { loadPlan, savedPlanContent, savePlan } from "../../src/engine/saved-plan.js";
import { planHasChanges, planHasErrors } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";

type Row = Record<string, unknown>;

const spec = (dir: string, extra = "") => `
access:
  roles:
    - id: WebDeploy
      privileges: [VM.Allocate, VM.Config.CPU, Datastore.AllocateSpace]
  groups:
    - id: web-team
      comment: web tier operators
  users:
    - id: deploy@pve
      groups: [web-team]
      enable: true
      expire: 2027-06-30
      comment: CI deploy user
  tokens:
    - user: deploy@pve
      name: ci
      comment: GitHub Actions
      secretFile: ${dir}/deploy-ci.token
  acls:
    - path: /pool/web
      role: WebDeploy
      token: deploy@pve!ci
  pools:
    - id: web
      comment: web tier
${extra}`;

describe("access as desired state", () => {
  let lab: Lab;
  let dir: string;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(async () => {
    lab.sim.admin.reset();
    dir = await mkdtemp(join(tmpdir(), "pvectl-access-"));
  });
  after(() => lab.close());

  const plan = (yaml: string, options = {}) => planSpec(lab.client, parseSpec(yaml, join(dir, "access.yaml")), options);
  const converge = async (yaml: string, options = {}) => {
    const planned = await plan(yaml);
    return { plan: planned.plan, report: await applyPlan(lab.client, planned, { ...fastApply, ...options }) };
  };
  const get = async (path: string) => (await lab.client.request("GET", path)) as Row[];

  it("creates every object, marked, writes the secret once with mode 0600, and a second plan is empty", async () => {
    const { plan: first, report } = await converge(spec(dir));
    assert.equal(
      planHasErrors(first),
      false,
      JSON.stringify(first.preflightErrors.concat(first.objects?.flatMap((o) => o.errors) as never)),
    );
    assert.ok(report.ok, JSON.stringify(report));
    const secret = (await readFile(join(dir, "deploy-ci.token"), "utf8")).trim();
    assert.match(secret, /^[0-9a-f-]{36}$/);
    assert.equal((await stat(join(dir, "deploy-ci.token"))).mode & 0o777, 0o600);
    assert.ok(!JSON.stringify(first).includes(secret) && !JSON.stringify(report).includes(secret));
    const users = await get("/access/users?full=1");
    const deploy = users.find((u) => u.userid === "deploy@pve");
    assert.equal(deploy?.comment, "CI deploy user [pvectl]");
    assert.equal(deploy?.groups, "web-team");
    assert.equal(deploy?.expire, Date.UTC(2027, 5, 30) / 1000);
    const acl = await get("/access/acl");
    assert.deepEqual(acl, [{ path: "/pool/web", type: "token", ugid: "deploy@pve!ci", roleid: "WebDeploy", propagate: 1 }]);
    const second = (await plan(spec(dir))).plan;
    assert.equal(planHasChanges(second), false, JSON.stringify(second.objects));
    assert.equal(planHasErrors(second), false, JSON.stringify(second));
  });

  it("removing a token is service-impact: held without --allow-restart, run with it; its ACL entry goes first", async () => {
    await converge(spec(dir));
    const without = spec(dir)
      .replace(/ {2}tokens:[\s\S]*?secretFile: .*\n/, "  tokens: []\n")
      .replace(/ {2}acls:[\s\S]*?token: deploy@pve!ci\n/, "  acls: []\n");
    const { plan: p, report } = await converge(without);
    const removals = (p.objects ?? []).filter((o) => o.steps.some((s) => s.action === "object-delete"));
    assert.deepEqual(
      removals.map((o) => [o.kind, o.steps[0]?.severity]),
      [
        ["access-acl", "service-impact"],
        ["access-token", "service-impact"],
      ],
    );
    assert.equal(report.objects?.filter((o) => o.pending.length > 0).length, 2);
    assert.equal((await get("/access/users/deploy@pve/token")).length, 1, "held: the token is still there");
    const second = await converge(without, { allowRestart: true });
    assert.ok(second.report.ok, JSON.stringify(second.report));
    assert.equal((await get("/access/users/deploy@pve/token")).length, 0);
    assert.deepEqual(await get("/access/acl"), []);
  });

  it("refuses to delete a role an ACL entry still uses, naming the paths", async () => {
    await converge(spec(dir));
    const absent = spec(dir).replace(
      "      privileges: [VM.Allocate, VM.Config.CPU, Datastore.AllocateSpace]",
      "      privileges: []\n      state: absent",
    );
    const { plan: p } = await plan(absent);
    const role = p.objects?.find((o) => o.kind === "access-role");
    assert.match(role?.errors[0] ?? "", /role WebDeploy .* still used by ACL entries on \/pool\/web/);
    assert.equal(planHasErrors(p), true);
    // The entry named as well: both go, the ACL entry first.
    const both = absent.replace(/ {2}acls:[\s\S]*?token: deploy@pve!ci\n/, "  acls: []\n");
    const { plan: q, report } = await converge(both, { allowRestart: true });
    assert.deepEqual(
      (q.objects ?? []).filter((o) => o.steps.length > 0).map((o) => `${o.kind} ${o.steps[0]?.action} ${o.steps[0]?.severity}`),
      ["access-acl object-delete service-impact", "access-role object-delete service-impact"],
    );
    assert.ok(report.ok, JSON.stringify(report));
    assert.equal(
      (await get("/access/roles")).some((r) => r.roleid === "WebDeploy"),
      false,
    );
  });

  it("lists objects pvectl did not create as not managed and never touches them; adopting needs adopt: true", async () => {
    await lab.client.request("POST", "/access/users", { userid: "alice@pve", comment: "hand made" });
    await lab.client.request("POST", "/access/groups", { groupid: "ops" });
    await lab.client.request("PUT", "/access/acl", { path: "/", roles: "PVEAuditor", users: "alice@pve" });
    const { plan: p, report } = await converge(spec(dir), { allowRestart: true, allowDataLoss: true });
    assert.ok(report.ok, JSON.stringify(report));
    const foreign = (p.objects ?? []).filter((o) => o.foreign).map((o) => `${o.kind} ${o.key}`);
    assert.deepEqual(foreign.sort(), ["access-acl / user:alice@pve PVEAuditor", "access-group ops", "access-user alice@pve"]);
    assert.equal(
      (await get("/access/acl")).some((a) => a.ugid === "alice@pve"),
      true,
    );
    const listed = `${spec(dir)}\n`.replace("  users:\n", "  users:\n    - id: alice@pve\n      enable: false\n");
    const refused = (await plan(listed)).plan;
    assert.match(refused.preflightErrors.map((e) => e.message).join("\n"), /user alice@pve .*was not created by pvectl.*adopt: true/);
    const adopted = await converge(listed.replace("      enable: false\n", "      enable: false\n      adopt: true\n"));
    assert.ok(adopted.report.ok, JSON.stringify(adopted.report));
    const alice = (await get("/access/users")).find((u) => u.userid === "alice@pve");
    assert.equal(alice?.comment, "hand made [pvectl]");
    assert.equal(alice?.enable, 0);
  });

  it("refuses a new token with nowhere to put its secret, or with a secret file that exists", async () => {
    const nowhere = spec(dir).replace(/ {6}secretFile: .*\n/, "");
    const p = (await plan(nowhere)).plan;
    assert.match(p.objects?.find((o) => o.kind === "access-token")?.errors[0] ?? "", /secretFile.*--show-secret/);
    await writeFile(join(dir, "deploy-ci.token"), "someone else's\n");
    const q = (await plan(spec(dir))).plan;
    assert.match(q.preflightErrors.map((e) => e.message).join("\n"), /deploy-ci.token already exists/);
    assert.equal(await readFile(join(dir, "deploy-ci.token"), "utf8"), "someone else's\n");
  });

  it("--show-secret prints a new token's secret once, and only to the printer", async () => {
    const nowhere = spec(dir).replace(/ {6}secretFile: .*\n/, "");
    const planned = await plan(nowhere, { showSecret: true });
    const printed: string[] = [];
    const report = await applyPlan(lab.client, planned, {
      ...fastApply,
      printSecret: (label, secret) => printed.push(`${label} ${secret}`),
    });
    assert.ok(report.ok, JSON.stringify(report));
    assert.equal(printed.length, 1);
    assert.match(printed[0] ?? "", /^access-token:deploy@pve!ci\/1-object-create [0-9a-f-]{36}$/);
    const secret = printed[0]?.split(" ")[1] ?? "";
    assert.ok(!JSON.stringify(planned.plan).includes(secret) && !JSON.stringify(report).includes(secret));
  });

  it("a token create whose answer is lost: the token nobody has the secret of is removed, the file too, and the next apply creates it", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/access/users/[^/]+/token/ci$", dropResponse: true, times: 1 });
    const { report } = await converge(spec(dir));
    assert.equal(report.ok, false);
    const token = report.objects?.find((o) => o.kind === "access-token");
    assert.match(token?.error ?? "", /answer .*was lost; the token was removed again/);
    assert.equal((await get("/access/users/deploy@pve/token")).length, 0);
    await assert.rejects(access(join(dir, "deploy-ci.token")));
    const again = await converge(spec(dir));
    assert.ok(again.report.ok, JSON.stringify(again.report));
    assert.match((await readFile(join(dir, "deploy-ci.token"), "utf8")).trim(), /^[0-9a-f-]{36}$/);
  });

  it("a pool the spec creates is there before its guests join it", async () => {
    const yaml = `${spec(dir)}
vms:
  - name: web1
    node: pve1
    pool: web
    memory: 512
    disks: { scsi0: { storage: local-lvm, size: 1G } }
`;
    const { plan: p, report } = await converge(yaml);
    assert.equal(planHasErrors(p), false, JSON.stringify(p.preflightErrors));
    assert.ok(report.ok, JSON.stringify(report));
    const [pool] = await get("/pools?poolid=web");
    assert.equal((pool?.members as unknown[] | undefined)?.length, 1);
  });

  it("a saved plan with access steps is recomputed: refused when the cluster or the plan changed since", async () => {
    const specFile = join(dir, "access.yaml");
    await writeFile(specFile, spec(dir));
    const parsed = parseSpec(spec(dir), specFile);
    const planned = await planSpec(lab.client, parsed);
    const file = join(dir, "plan.json");
    await savePlan(
      file,
      await savedPlanContent(lab.client, planned, [specFile], { shutdownTimeoutSeconds: 120, forceStop: false, adopt: false }, undefined),
    );
    const tampered = await loadPlan(file);
    const acl = tampered.plan.objects?.find((o) => o.kind === "access-acl")?.steps[0]?.calls[0];
    assert.ok(acl);
    acl.body.roles = "Administrator";
    assert.ok((await recomputeSavedPlan(lab.client, tampered, parsed)).problems.some((p) => /access-acl .* differs/.test(p)));
    assert.deepEqual((await recomputeSavedPlan(lab.client, await loadPlan(file), parsed)).problems, []);
    // Someone creates the group meanwhile: the saved plan's create is no longer what apply would do.
    await lab.client.request("POST", "/access/groups", { groupid: "web-team" });
    assert.notDeepEqual((await recomputeSavedPlan(lab.client, await loadPlan(file), parsed)).problems, []);
  });

  it("a create whose answer is lost is resolved by reading back, never sent twice", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/access/groups$", dropResponse: true, times: 1 });
    lab.sim.admin.injectFault({ method: "POST", path: "^/pools$", dropResponse: true, times: 1 });
    const { report } = await converge(spec(dir));
    assert.ok(report.ok, JSON.stringify(report));
    assert.equal(report.objects?.find((o) => o.kind === "access-group")?.result, "created");
    assert.deepEqual(
      (await get("/access/groups")).map((g) => g.groupid),
      ["web-team"],
    );
    assert.deepEqual(
      (await get("/pools")).map((p) => p.poolid),
      ["web"],
    );
  });
});
