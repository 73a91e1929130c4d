// Access objects pvectl created, as Debian's Ansible (community.general 6.6.2) reads them:
// `proxmox_user_info` and `proxmox_group_info`, signed in with the API token pvectl created
// and whose secret it wrote to the token's secretFile (privilege-separated: the token's own
// ACL entry grants what it may read, within its user's).
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";
import { ansibleEnv, ansibleMissing, REPO_ROOT, run } from "../support/conformance.js";

const missing = ansibleMissing();
const SPEC = `version: 1
access:
  roles:
    - { id: UserReader, privileges: [Sys.Audit] }
  groups:
    - { id: web-team, comment: web tier operators }
  users:
    - { id: deploy@pve, groups: [web-team], comment: CI deploy user, expire: 2027-06-30 }
  tokens:
    - { user: deploy@pve, name: ci, comment: ansible, secretFile: ./ci.token }
  acls:
    - { path: /access/groups, role: UserReader, user: deploy@pve }
    - { path: /access/groups, role: UserReader, token: "deploy@pve!ci" }
`;
let sim: RunningSimulator;
let dir: string;

before(async () => {
  if (missing) return;
  sim = await startSimulator({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), "pvectl-access-ansible-"));
  await writeFile(join(dir, "access.yaml"), SPEC);
  const applied = await pvectl(["apply", join(dir, "access.yaml"), "--yes"], simEnv(sim));
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
});
after(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("proxmox_user_info and proxmox_group_info read what pvectl created, with the token it made", { skip: missing }, async () => {
  const out = join(dir, "seen.json");
  const secret = (await readFile(join(dir, "ci.token"), "utf8")).trim();
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, token_secret: secret, out });
  const result = await run(
    "ansible-playbook",
    [join(REPO_ROOT, "test/conformance/playbooks/access-info.yml"), "-e", vars],
    ansibleEnv({}),
    REPO_ROOT,
    300_000,
  );
  assert.equal(result.code, 0, `${result.stdout.slice(-6000)}\n${result.stderr.slice(-2000)}`);
  assert.ok(!result.stdout.includes(secret), "the playbook printed the token secret");
  const seen = JSON.parse(await readFile(out, "utf8")) as { users: Array<Record<string, unknown>>; groups: Array<Record<string, unknown>> };
  const [user] = seen.users;
  assert.equal(user?.userid, "deploy@pve");
  assert.equal(user?.comment, "CI deploy user [pvectl]");
  assert.deepEqual(user?.groups, ["web-team"]);
  assert.equal(user?.expire, Date.UTC(2027, 5, 30) / 1000);
  // The module turns PVE's 0/1 privsep into a boolean: pvectl's default privilege separation.
  // The token has no expiry of its own (user.cfg holds 0); its user's expiry ends it all the same.
  assert.deepEqual(user?.tokens, [{ tokenid: "ci", privsep: true, expire: 0, comment: "ansible [pvectl]" }]);
  const group = seen.groups.find((g) => g.groupid === "web-team");
  assert.equal(group?.comment, "web tier operators [pvectl]");
  assert.deepEqual(group?.users, ["deploy@pve"]);
});
