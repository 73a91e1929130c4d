// `pvectl access needs` (text, --json, --format spec) and `pvectl access check --token`: what
// the example web tier needs, and what a token lacks of it (exit 1), read by root; a user that
// may not read another's permissions gets a clear refusal, not a stack trace.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "../support/cli.js";

describe("pvectl access", () => {
  let sim: RunningSimulator;
  let root: PveClient;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 3 });
    root = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
    env = simEnv(sim);
    await root.request("POST", "/access/users", { userid: "deploy@pve", password: "deploy-pass-1" });
    await root.request("POST", "/access/users/deploy@pve/token/ci", { privsep: 1 });
    await root.request("PUT", "/access/acl", { path: "/vms/201", roles: "PVEVMAdmin", users: "deploy@pve" });
    await root.request("PUT", "/access/acl", { path: "/vms/201", roles: "PVEVMAdmin", tokens: "deploy@pve!ci" });
  });
  after(async () => {
    await root.close();
    await sim.close();
  });

  it("needs: per path, with the operations and guests, and the pool advice", async () => {
    const out = await pvectl(["access", "needs", "examples/web.yaml"]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^\/vms\/201\n(?: {2}.+\n)*? {2}VM\.Allocate +create, destroy: web1$/m);
    assert.match(out.stdout, /^\/sdn\/zones\/localnetwork\/vmbr1\n {2}SDN\.Use +change, create: db1$/m);
    assert.match(out.stdout, /^note: not in a pool: web1, web2, db1\./m);
  });

  it("needs --format spec: roles and ACL entries for the token and its user, loadable YAML", async () => {
    const out = await pvectl([
      "access",
      "needs",
      "examples/web.yaml",
      "--format",
      "spec",
      "--token",
      "deploy@pve!ci",
      "--role",
      "WebDeploy",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const { access } = parse(out.stdout) as {
      access: { roles: Array<{ id: string; privileges: string[] }>; acls: Array<Record<string, unknown>> };
    };
    assert.deepEqual(
      access.roles.map((r) => r.id),
      ["WebDeploy", "WebDeployNetwork", "WebDeployStorage"],
    );
    assert.ok(access.roles[0]!.privileges.includes("VM.PowerMgmt"));
    assert.ok(!access.roles[0]!.privileges.some((p) => p.startsWith("Datastore.")), "storage privileges live in the storage role");
    assert.deepEqual(
      access.acls.filter((a) => a.path === "/vms/201"),
      [
        { path: "/vms/201", role: "WebDeploy", user: "deploy@pve", propagate: false },
        { path: "/vms/201", role: "WebDeploy", token: "deploy@pve!ci", propagate: false },
      ],
    );
  });

  it("needs refuses a role id PVE keeps for itself, and --format spec without a subject", async () => {
    const pve = await pvectl([
      "access",
      "needs",
      "examples/web.yaml",
      "--format",
      "spec",
      "--token",
      "deploy@pve!ci",
      "--role",
      "PVEDeploy",
    ]);
    assert.equal(pve.code, 1);
    assert.match(pve.stderr, /starts with PVE/);
    const none = await pvectl(["access", "needs", "examples/web.yaml", "--format", "spec"]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /needs the ACL subject/);
  });

  it("needs --format spec output passes validate (a group, guests without vmid, backup jobs); ids the section would refuse are refused up front", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pvectl-needs-valid-"));
    try {
      const guests = join(dir, "guests.yaml");
      writeFileSync(
        guests,
        "vms:\n  - name: novmid\n    node: pve1\n    memory: 512\nbackupJobs:\n  - { id: nightly, schedule: '02:30', selection: { all: true }, storage: local }\n",
      );
      const out = await pvectl(["access", "needs", guests, "examples/web.yaml", "--format", "spec", "--group", "web-team"]);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /path: \/vms\n/);
      assert.match(out.stdout, /id: DeployCluster/);
      const generated = join(dir, "access.yaml");
      writeFileSync(generated, out.stdout);
      const valid = await pvectl(["validate", generated]);
      assert.equal(valid.code, 0, valid.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const [flag, id] of [
      ["--token", "deploy@p!ci"],
      ["--user", "deploy@pve!ci"],
      ["--group", "web team"],
      ["--role", "R".repeat(58)],
    ] as const) {
      const subject = flag === "--role" ? ["--token", "deploy@pve!ci", "--role", id] : [flag, id];
      const refused = await pvectl(["access", "needs", "examples/web.yaml", "--format", "spec", ...subject]);
      assert.equal(refused.code, 1, `${flag} ${id}`);
      assert.match(refused.stderr, flag === "--role" ? /too long/ : /is not an id PVE accepts there/);
      assert.equal(refused.stdout, "");
    }
  });

  it("check: lists what the token lacks per path and exits 1; --json says the same", async () => {
    const out = await pvectl(["access", "check", "--token", "deploy@pve!ci", "examples/web.yaml"], env);
    assert.equal(out.code, 1, out.stderr);
    assert.match(out.stdout, /^deploy@pve!ci lacks \d+ privileges the specs need:/);
    assert.match(out.stdout, /^\/vms\/202\n {2}VM\.Allocate/m);
    assert.doesNotMatch(out.stdout, /^\/vms\/201$/m, "PVEVMAdmin on /vms/201 holds every VM privilege web1 needs");
    const json = await pvectl(["access", "check", "--token", "deploy@pve!ci", "examples/web.yaml", "--json"], env);
    const result = JSON.parse(json.stdout) as { ok: boolean; missing: Array<{ path: string; privilege: string }> };
    assert.equal(result.ok, false);
    assert.ok(result.missing.some((m) => m.path === "/storage/local-lvm" && m.privilege === "Datastore.AllocateSpace"));
  });

  it("check: a one-character realm or token name is refused before PVE is asked, naming the value", async () => {
    for (const id of ["deploy@p!ci", "deploy@pve!c", "d@p"]) {
      const out = await pvectl(["access", "check", "--token", id, "examples/web.yaml"], env);
      assert.equal(out.code, 1, id);
      assert.match(out.stderr, new RegExp(`'${id.replace(/[.!]/g, "\\$&")}' is not a user or token id PVE accepts`));
      assert.equal(out.stdout, "");
    }
  });

  it("check: a user without Sys.Audit on /access may not read another's permissions, and is told so", async () => {
    const out = await pvectl(["access", "check", "--token", "root@pam", "examples/web.yaml"], {
      ...env,
      PROXMOX_USER: "deploy@pve",
      PROXMOX_PASSWORD: "deploy-pass-1",
    });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /deploy@pve may not read the permissions of root@pam/);
    assert.match(out.stderr, /Sys\.Audit on \/access/);
    assert.doesNotMatch(out.stderr, /\bat .+\.ts:\d+/, "no stack trace");
  });
});
