// Access objects pvectl created, as a client nobody here wrote reads them: Debian's
// python3-proxmoxer lists users (with their tokens), groups, roles, ACL entries and pools and
// finds them as PVE stores them (pvectl's marker at the end of each comment, 0/1 integers,
// comma-joined lists, the expiry in seconds); then it signs in with the token secret pvectl
// wrote to its file and, the token being privilege-separated, sees only what its ACL entry
// on /pool/web grants.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { PROXMOXER_PREAMBLE, runProxmoxerScript, proxmoxerSkip as skip } from "./proxmoxer.js";

const SPEC = (dir: string) => `
access:
  roles:
    - id: WebDeploy
      privileges: [Pool.Audit, VM.Audit, VM.Allocate]
  groups:
    - id: web-team
      comment: web tier operators
  users:
    - id: deploy@pve
      groups: [web-team]
      expire: 2027-06-30
      comment: CI deploy user
  tokens:
    - user: deploy@pve
      name: ci
      comment: GitHub Actions
      secretFile: ${dir}/ci.token
  acls:
    - { path: /pool/web, role: WebDeploy, token: "deploy@pve!ci" }
    - { path: /pool/web, role: PVEAuditor, user: deploy@pve, propagate: false }
  pools:
    - id: web
      comment: web tier
`;

const SCRIPT = (secret: string) => `${PROXMOXER_PREAMBLE}
out = {}
out["users"] = [u for u in p.access.users.get(full=1) if u["userid"] == "deploy@pve"]
out["user"] = p.access.users("deploy@pve").get()
out["tokens"] = p.access.users("deploy@pve").token.get()
out["groups"] = p.access.groups.get()
out["group"] = p.access.groups("web-team").get()
out["roles"] = [r for r in p.access.roles.get() if r["roleid"] == "WebDeploy"]
out["role"] = p.access.roles("WebDeploy").get()
out["acl"] = p.access.acl.get()
out["pools"] = p.pools.get()
t = ProxmoxAPI(host, port=port, user="deploy@pve", token_name="ci", token_value=${JSON.stringify(secret)}, verify_ssl=ca)
out["as_token_pools"] = t.pools.get()
out["as_token_perms"] = t.access.permissions.get()
print(json.dumps(out))
`;

describe("proxmoxer reads the access objects pvectl created", { skip }, () => {
  let sim: RunningSimulator;
  let client: PveClient;
  let dir: string;
  // biome-ignore lint/suspicious/noExplicitAny: the script's JSON, checked field by field below
  let seen: any;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 5 });
    dir = mkdtempSync(join(tmpdir(), "pvectl-proxmoxer-access-"));
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    const planned = await planSpec(client, parseSpec(SPEC(dir), join(dir, "access.yaml")));
    const report = await applyPlan(client, planned, { taskPoll: { minIntervalMs: 5, maxIntervalMs: 20 } });
    assert.ok(report.ok, JSON.stringify(report));
    seen = await runProxmoxerScript(sim, SCRIPT(readFileSync(join(dir, "ci.token"), "utf8").trim()));
  });
  after(async () => {
    await client?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the user, with its groups and token, as PVE stores them", () => {
    const [listed] = seen.users;
    assert.equal(listed.comment, "CI deploy user [pvectl]");
    assert.equal(listed.groups, "web-team");
    assert.equal(listed.enable, 1);
    assert.equal(listed.expire, Date.UTC(2027, 5, 30) / 1000);
    // No expiry of its own (user.cfg holds 0): the user's expiry ends it.
    assert.deepEqual(listed.tokens, [{ tokenid: "ci", privsep: 1, expire: 0, comment: "GitHub Actions [pvectl]" }]);
    assert.deepEqual(seen.user.groups, ["web-team"]);
    assert.deepEqual(Object.keys(seen.user.tokens), ["ci"]);
    assert.equal(seen.tokens[0].privsep, 1);
  });

  it("the group, the role and the pool", () => {
    assert.deepEqual(seen.groups, [{ groupid: "web-team", comment: "web tier operators [pvectl]", users: "deploy@pve" }]);
    assert.deepEqual(seen.group.members, ["deploy@pve"]);
    assert.deepEqual(seen.roles, [{ roleid: "WebDeploy", privs: "Pool.Audit,VM.Allocate,VM.Audit", special: 0 }]);
    assert.deepEqual(seen.role, { "Pool.Audit": 1, "VM.Allocate": 1, "VM.Audit": 1 });
    assert.deepEqual(seen.pools, [{ poolid: "web", comment: "web tier [pvectl]" }]);
  });

  it("the ACL entries, one per subject and role, propagate as 0/1", () => {
    const acl = [...seen.acl].sort((a, b) => a.type.localeCompare(b.type));
    assert.deepEqual(acl, [
      { path: "/pool/web", type: "token", ugid: "deploy@pve!ci", roleid: "WebDeploy", propagate: 1 },
      { path: "/pool/web", type: "user", ugid: "deploy@pve", roleid: "PVEAuditor", propagate: 0 },
    ]);
  });

  it("the token's secret from its file signs in; privilege-separated, it holds its own grant within its user's", () => {
    assert.deepEqual(
      seen.as_token_pools.map((p: { poolid: string }) => p.poolid),
      ["web"],
    );
    // The user holds PVEAuditor there, the token WebDeploy: the token keeps only what both have.
    const held = Object.keys(seen.as_token_perms["/pool/web"] ?? {}).sort();
    assert.deepEqual(held, ["Pool.Audit", "VM.Audit"]);
  });
});
