// `pvectl plan/apply/show/import` with an `access:` section, on the command line: the new
// token's secret lands in its file (mode 0600) and nowhere else — not in the plan JSON, the
// saved plan, the report or any output — and a second plan is empty.
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = `version: 1
access:
  roles:
    - id: WebDeploy
      privileges: [VM.Allocate, VM.Config.CPU, Datastore.AllocateSpace]
  groups:
    - id: web-team
  users:
    - id: deploy@pve
      groups: [web-team]
      comment: CI deploy user
  tokens:
    - user: deploy@pve
      name: ci
      secretFile: ./secrets/deploy-ci.token
  acls:
    - path: /pool/web
      role: WebDeploy
      token: deploy@pve!ci
  pools:
    - id: web
`;

describe("pvectl with an access section", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const outputs: string[] = [];
  const run = async (args: string[]) => {
    const result = await pvectl(args, env);
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  before(async () => {
    lab = await startCliLab("cli-access", { seed: 3 });
    ({ sim, dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "access.yaml"), SPEC);
    await import("node:fs").then((fs) => fs.mkdirSync(join(dir, "secrets"), { mode: 0o700 }));
  });
  after(async () => {
    await lab.close();
  });

  it("plans, saves, applies; the secret is only in its 0600 file; a second plan is empty; show and import print no secret", async () => {
    const spec = join(dir, "access.yaml");
    const saved = join(dir, "plan.json");
    const plan = await run(["plan", "-f", spec, "--out", saved]);
    assert.equal(plan.code, 0, plan.stderr);
    assert.match(
      plan.stdout,
      /\+ API token deploy@pve!ci\n {4}create API token deploy@pve!ci: its secret is written to .*deploy-ci\.token \(mode 0600\) {2}\[configuration\]/,
    );
    assert.match(plan.stdout, /\+ ACL entry \/pool\/web token:deploy@pve!ci WebDeploy/);
    const apply = await run(["apply", "--plan", saved, "--yes", "--json"]);
    assert.equal(apply.code, 0, apply.stderr + apply.stdout);
    const file = join(dir, "secrets", "deploy-ci.token");
    const secret = readFileSync(file, "utf8").trim();
    assert.match(secret, /^[0-9a-f-]{36}$/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = await run(["plan", "-f", spec, "--json", "--detailed-exitcode"]);
    assert.equal(again.code, 0, again.stdout);
    const show = await run(["show", "-f", spec]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /access:\n/);
    assert.match(show.stdout, /- user: deploy@pve\n\s+name: ci\n/);
    const imported = await run(["import", "--access"]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /roles:\n\s+- id: WebDeploy/);
    assert.doesNotMatch(imported.stdout, /root@pam|PVEAdmin|secret/i);
    for (const text of [...outputs, readFileSync(saved, "utf8")])
      assert.ok(!text.includes(secret), "the secret leaked into output or the saved plan");
    // Applying again (the token exists) never touches the file.
    const rerun = await run(["apply", "-f", spec, "--yes"]);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(readFileSync(file, "utf8").trim(), secret);
  });

  it("an imported access section plans nothing against the same cluster but adopting what pvectl did not create", async () => {
    await run(["apply", "-f", join(dir, "access.yaml"), "--yes"]);
    const client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint as string,
    });
    await client.request("POST", "/access/users", { userid: "alice@pve", comment: "by hand" });
    await client.request("PUT", "/access/acl", { path: "/vms", roles: "PVEAuditor", users: "alice@pve" });
    await client.close();
    const imported = await run(["import", "--access", "-o", join(dir, "imported.yaml")]);
    assert.equal(imported.code, 0, imported.stderr);
    const plan = await run(["plan", "-f", join(dir, "imported.yaml"), "--json"]);
    assert.equal(plan.code, 0, plan.stderr);
    const parsed = JSON.parse(plan.stdout) as { objects: Array<{ kind: string; key: string; steps: Array<{ summary: string }> }> };
    const steps = parsed.objects.flatMap((o) => o.steps.map((s) => s.summary));
    assert.deepEqual(steps, ["adopt user alice@pve (pvectl's marker added to its comment)"]);
  });
});
