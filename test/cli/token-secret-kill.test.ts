// pvectl killed between a token's create and the write of its secretFile (#29): PVE has the
// token, the file is empty, nobody has the secret. The next plan shows the secret-reset step
// (exit 2 with --detailed-exitcode), apply without --allow-secret-reset refuses it naming the
// flag, apply with it makes a new secret that logs in, and the plan after that is empty.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv, spawnPvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = `version: 1
access:
  users:
    - id: deploy@pve
  tokens:
    - user: deploy@pve
      name: ci
      secretFile: ./secrets/ci.token
  acls:
    - path: /vms
      role: PVEAuditor
      token: deploy@pve!ci
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("an apply killed between a token's create and the write of its secret", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const client = (auth: { user: string; password: string } | { tokenId: string; tokenSecret: string }) =>
    new PveClient({ host: "127.0.0.1", port: sim.port, fingerprint: sim.fingerprint as string, ...auth });
  before(async () => {
    lab = await startCliLab("secret-kill", { seed: 29 });
    ({ sim, dir } = lab);
    mkdirSync(join(dir, "secrets"), { mode: 0o700 });
    writeFileSync(join(dir, "access.yaml"), SPEC);
    env = simEnv(sim);
  });
  after(async () => {
    await lab.close();
  });

  /** Apply, killed once PVE made the token and while its answer (with the secret) is held back. */
  async function killedApply(): Promise<void> {
    sim.admin.injectFault({ method: "POST", path: "^/access/users/[^/]+/token/ci$", responseDelayMs: 1500, times: 1 });
    const child = spawnPvectl(["apply", "-f", join(dir, "access.yaml"), "--yes"], env);
    const closed = new Promise((resolve) => child.on("close", resolve));
    const root = client({ user: "root@pam", password: sim.rootPassword });
    try {
      for (let i = 0; i < 400; i++) {
        const tokens = (await root.request("GET", "/access/users/deploy@pve/token").catch(() => [])) as unknown[];
        if (tokens.length > 0) break;
        await sleep(25);
      }
    } finally {
      await root.close();
    }
    child.kill("SIGKILL");
    await closed;
    sim.admin.clearFaults();
  }

  it("the next plan shows the reset, apply needs --allow-secret-reset, the new secret logs in, the plan after is empty", async () => {
    await killedApply();
    const file = join(dir, "secrets", "ci.token");
    assert.equal(statSync(file).size, 0, "killed before the secret was written: the file is empty");

    const spec = join(dir, "access.yaml");
    const plan = await pvectl(["plan", "-f", spec, "--detailed-exitcode"], env);
    assert.equal(plan.code, 2, plan.stdout + plan.stderr);
    assert.match(
      plan.stdout,
      /~ API token deploy@pve!ci\n {4}reset the secret of API token deploy@pve!ci: the token exists but its secretFile \S+ci\.token is empty, so its secret is lost;.*The old secret stops working: every consumer must be given the new one {2}\[secret-reset\]/,
    );
    // Killed before the token's ACL entry was granted: its own step grants it after the reset.
    assert.match(plan.stdout, /\+ ACL entry \/vms token:deploy@pve!ci PVEAuditor/);
    assert.match(
      plan.stdout,
      /1 step\(s\) give an API token a new secret \(the old one stops working\): they run only with --allow-secret-reset/,
    );

    const refused = await pvectl(["apply", "-f", spec, "--yes"], env);
    assert.equal(refused.code, 3, refused.stdout + refused.stderr);
    assert.match(refused.stdout + refused.stderr, /needs --allow-secret-reset/);
    assert.doesNotMatch(refused.stdout, /deploy@pve!ci: no changes|nothing to do/);
    assert.equal(statSync(file).size, 0);

    const applied = await pvectl(["apply", "-f", spec, "--yes", "--allow-secret-reset"], env);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    assert.match(applied.stdout, /changed\s+access-token deploy@pve!ci/);
    assert.doesNotMatch(applied.stdout, /deploy@pve!ci: no changes|nothing to do/);
    const secret = readFileSync(file, "utf8").trim();
    assert.match(secret, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(!applied.stdout.includes(secret) && !applied.stderr.includes(secret), "the secret is in no output");

    const token = client({ tokenId: "deploy@pve!ci", tokenSecret: secret });
    const root = client({ user: "root@pam", password: sim.rootPassword });
    try {
      assert.ok(await token.request("GET", "/version"), "the new secret logs in");
      assert.deepEqual(await root.request("GET", "/access/acl"), [
        { path: "/vms", type: "token", ugid: "deploy@pve!ci", roleid: "PVEAuditor", propagate: 1 },
      ]);
    } finally {
      await token.close();
      await root.close();
    }

    const after = await pvectl(["plan", "-f", spec, "--detailed-exitcode"], env);
    assert.equal(after.code, 0, after.stdout);
  });
});
