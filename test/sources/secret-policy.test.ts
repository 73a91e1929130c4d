// Specs are untrusted (docs/client.md, "Threat model"): a spec connection gets a secret only
// from a variable with an allowed prefix or a file in the spec's own directory tree (or a
// --secrets-dir), never the PROXMOX_* connection's own secret for another host, and never
// over plain HTTP to another machine. Each refusal names the connection, where it is written
// and the flag that allows it.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { ConnectionError, resolveConnection } from "../../src/sources/connections.js";
import { DEFAULT_SECRET_POLICY, type SecretPolicyError, secretPolicy } from "../../src/sources/secret-policy.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConnectionError, `expected a ConnectionError, got ${String(err)}`);
    assert.ok(!err.userMessage().includes(SECRET), "no secret in the message");
    return err.userMessage();
  }
  assert.fail("no error thrown");
}

describe("the secret policy of spec connections", () => {
  let root = "";
  let specDir = "";
  let spec = "";
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "pvectl-policy-")));
    specDir = join(root, "repo", "specs");
    spec = join(specDir, "web.yaml");
    await mkdir(join(specDir, "secrets"), { recursive: true });
    await mkdir(join(root, "outside"));
    await writeFile(join(specDir, "secrets", "token"), `${SECRET}\n`);
    await writeFile(join(root, "outside", "token"), `${SECRET}\n`);
    await symlink(join(root, "outside", "token"), join(specDir, "link-out"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function conn(fields: string): ReturnType<typeof parseSpec> {
    return parseSpec(`connections:\n  lab: { host: pve1.example.org, user: ci@pve, tokenId: ci, ${fields} }\n`, spec);
  }
  const where = () => `connection \`lab\` (${spec}:2:3)`;

  it("reads a secret file inside the spec's directory tree", () => {
    assert.equal(resolveConnection(conn("tokenSecretFile: secrets/token"), "lab", {}).tokenSecret, SECRET);
  });

  it("refuses secret files outside the spec's directory: .., absolute paths, links pointing out", () => {
    for (const path of ["../../outside/token", join(root, "outside", "token"), "/etc/passwd", "../../outside/missing"]) {
      const message = failure(() => resolveConnection(conn(`tokenSecretFile: ${path}`), "lab", {}));
      assert.match(
        message,
        new RegExp(`^${escapeRe(where())}: tokenSecretFile: refusing to read .*: it is outside the spec's directory ${escapeRe(specDir)}`),
      );
      assert.match(message, /Move the file there, or allow its directory with --secrets-dir DIR$/);
    }
    const link = failure(() => resolveConnection(conn("tokenSecretFile: link-out"), "lab", {}));
    assert.match(
      link,
      new RegExp(
        `refusing to read ${escapeRe(join(specDir, "link-out"))}: it is outside the spec's directory .* \\(it leads to ${escapeRe(join(root, "outside", "token"))}\\)`,
      ),
    );
  });

  it("reads a file outside when --secrets-dir names its directory", () => {
    const policy = secretPolicy({ secretsDirs: [join(root, "outside")] });
    assert.equal(resolveConnection(conn(`tokenSecretFile: ${join(root, "outside", "token")}`), "lab", {}, policy).tokenSecret, SECRET);
    assert.equal(resolveConnection(conn("tokenSecretFile: link-out"), "lab", {}, policy).tokenSecret, SECRET);
  });

  it("reads only variables with an allowed prefix (default PROXMOX_ and PVE_)", () => {
    const env = { AWS_SECRET_ACCESS_KEY: SECRET, PVE_LAB_SECRET: SECRET };
    const message = failure(() => resolveConnection(conn("tokenSecretEnv: AWS_SECRET_ACCESS_KEY"), "lab", env));
    assert.equal(
      message,
      `${where()}: tokenSecretEnv: refusing to read AWS_SECRET_ACCESS_KEY: it does not start with an allowed prefix (PROXMOX_, PVE_), ` +
        "and a spec may only read variables set aside for specs. Rename the variable (e.g. PVE_AWS_SECRET_ACCESS_KEY), or allow its prefix with " +
        "--secret-env-prefix (which replaces the defaults; repeat it to keep them)",
    );
    assert.equal(resolveConnection(conn("tokenSecretEnv: PVE_LAB_SECRET"), "lab", env).tokenSecret, SECRET);
    const custom = secretPolicy({ secretEnvPrefixes: ["CI_PVE_"] });
    assert.equal(resolveConnection(conn("tokenSecretEnv: CI_PVE_X"), "lab", { CI_PVE_X: SECRET }, custom).tokenSecret, SECRET);
    assert.match(
      failure(() => resolveConnection(conn("tokenSecretEnv: PVE_LAB_SECRET"), "lab", env, custom)),
      /allowed prefix \(CI_PVE_\)/,
    );
  });

  it("sends the PROXMOX_* connection's own secret only to PROXMOX_HOST", () => {
    const env = { PROXMOX_HOST: "pve1.example.org", PROXMOX_TOKEN_SECRET: SECRET, PROXMOX_PASSWORD: SECRET };
    assert.equal(resolveConnection(conn("tokenSecretEnv: PROXMOX_TOKEN_SECRET"), "lab", env).tokenSecret, SECRET);
    const elsewhere = parseSpec("connections:\n  lab: { host: attacker.example, user: root@pam, passwordEnv: PROXMOX_PASSWORD }\n", spec);
    assert.equal(
      failure(() => resolveConnection(elsewhere, "lab", env)),
      `${where()}: passwordEnv: refusing to read PROXMOX_PASSWORD: it is the secret of the PROXMOX_* connection (https://pve1.example.org:8006), ` +
        "which goes only to PROXMOX_HOST, not to https://attacker.example:8006. Give this connection a variable of its own (e.g. PVE_<NAME>_TOKEN_SECRET)",
    );
  });

  it("refuses plain HTTP to another machine before reading any secret, unless --allow-http", () => {
    const http = parseSpec("connections:\n  lab: { host: http://attacker.example, user: root@pam, passwordEnv: PVE_PASSWORD }\n", spec);
    assert.equal(
      failure(() => resolveConnection(http, "lab", {})),
      `${where()}: refusing to connect: plain HTTP to http://attacker.example:8006, which is not this machine, would send the credentials and everything else unencrypted. ` +
        "Use https:// (Proxmox VE serves HTTPS on port 8006), or, if the network path is trusted, pass --allow-http (or set PVECTL_ALLOW_HTTP=true)",
    );
    const allowed = resolveConnection(http, "lab", { PVE_PASSWORD: SECRET }, secretPolicy({ allowHttp: true }));
    assert.equal(allowed.password, SECRET);
    assert.doesNotThrow(() => new PveClient(allowed).close());
    const local = parseSpec("connections:\n  lab: { host: http://127.0.0.1:9, user: root@pam, passwordEnv: PVE_PASSWORD }\n", spec);
    assert.equal(resolveConnection(local, "lab", { PVE_PASSWORD: SECRET }).password, SECRET, "loopback is this machine");
  });

  it("refuses PROXMOX_HOST=http://... to another machine, for the CLI and for library users", () => {
    const env = { PROXMOX_HOST: "http://pve1.example.org:8006", PROXMOX_USER: "root@pam", PROXMOX_PASSWORD: SECRET };
    assert.match(
      failure(() => resolveConnection({ connections: {} }, undefined, env)),
      /^PROXMOX_HOST: refusing to connect: plain HTTP to http:\/\/pve1\.example\.org:8006, which is not this machine/,
    );
    assert.throws(
      () => PveClient.fromEnv(env),
      (err: PveError) => err instanceof PveError && /--allow-http \(or set PVECTL_ALLOW_HTTP=true\)/.test(err.message),
    );
    assert.equal(resolveConnection({ connections: {} }, undefined, env, secretPolicy({ allowHttp: true })).allowHttp, true);
    assert.doesNotThrow(() => PveClient.fromEnv({ ...env, PVECTL_ALLOW_HTTP: "true" }).close());
    for (const host of ["http://localhost:8006", "http://127.0.0.5", "http://[::1]:8006"]) {
      assert.doesNotThrow(() => PveClient.fromEnv({ ...env, PROXMOX_HOST: host }).close(), host);
    }
  });

  it("says what is wrong with a policy option", () => {
    assert.deepEqual(secretPolicy({}), DEFAULT_SECRET_POLICY);
    assert.throws(
      () => secretPolicy({ secretsDirs: [join(root, "nope")] }),
      (err: SecretPolicyError) => /--secrets-dir .*nope does not exist/.test(err.message),
    );
    assert.throws(
      () => secretPolicy({ secretEnvPrefixes: [""] }),
      /--secret-env-prefix '' is not the start of an environment variable name/,
    );
  });
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
