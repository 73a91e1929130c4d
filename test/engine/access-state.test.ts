// Access as desired state (#16): roles, groups, users, tokens, ACL entries and pools planned
// and applied against the simulator's /access and /pools, with pvectl's marker, adoption,
// service-impact removals and the one-time token secret.
import assert from "node:assert/strict";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { planHasChanges, planHasErrors } from "../../src/plan/types.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "./helpers.js";

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
    assert.equal(planHasErrors(first), false, JSON.stringify(first.preflightErrors.concat(first.objects?.flatMap((o) => o.errors) as never)));
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
});
