// Connection resolution: a spec's named connection reads its secret from the environment
// variable or file it names; without a name, the PROXMOX_* variables apply. Secrets never
// appear in messages.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConnectionError, resolveConnection } from "../../src/sources/connections.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";
const FP = "ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67:89";

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConnectionError, `expected a ConnectionError, got ${String(err)}`);
    return err.userMessage();
  }
  assert.fail("no error thrown");
}

describe("resolveConnection", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-conn-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("uses the PROXMOX_* environment when the spec names no connection", () => {
    const spec = parseSpec("vms:\n  - { name: a, node: pve1 }\n", "web.yaml");
    assert.equal(spec.vms[0]?.connection, undefined);
    const options = resolveConnection(spec, spec.vms[0]?.connection, {
      PROXMOX_HOST: "127.0.0.1",
      PROXMOX_PORT: "8443",
      PROXMOX_USER: "automation@pve",
      PROXMOX_TOKEN_ID: "ci",
      PROXMOX_TOKEN_SECRET: SECRET,
      PROXMOX_VALIDATE_CERTS: "true",
      PROXMOX_CA_PATH: "/etc/pve/pve-root-ca.pem",
    });
    assert.equal(options.host, "127.0.0.1");
    assert.equal(options.port, 8443);
    assert.equal(options.user, "automation@pve");
    assert.equal(options.tokenId, "ci");
    assert.equal(options.tokenSecret, SECRET);
    assert.equal(options.validateCerts, true);
    assert.equal(options.caPath, "/etc/pve/pve-root-ca.pem");
  });

  it("says what is missing when neither the spec nor the environment gives a connection", () => {
    const message = failure(() => resolveConnection({ connections: {} }, undefined, {}));
    assert.match(message, /PROXMOX_HOST is not set/);
    assert.match(
      message,
      /the spec names no connection, so pvectl reads the PROXMOX_\* environment variables; or define one under `connections:`/,
    );
  });

  it("reads a named connection's token secret from the variable it names, ignoring PROXMOX_*", () => {
    const spec = parseSpec(
      `connections:\n  lab:\n    host: pve1.lab\n    port: 8006\n    user: automation@pve\n    tokenId: pvectl\n    tokenSecretEnv: PVE_LAB_SECRET\n    fingerprint: "${FP}"\n`,
      "lab.yaml",
    );
    const options = resolveConnection(spec, "lab", {
      PVE_LAB_SECRET: ` ${SECRET}\n`,
      PROXMOX_HOST: "elsewhere",
      PROXMOX_TOKEN_SECRET: "other",
    });
    assert.deepEqual(options, {
      host: "pve1.lab",
      port: 8006,
      user: "automation@pve",
      tokenId: "pvectl",
      tokenSecret: SECRET,
      fingerprint: FP.toUpperCase(),
    });
  });

  it("reads a password from a file relative to the spec, first line only", async () => {
    const specFile = join(dir, "spec.yaml");
    await writeFile(join(dir, "pve-password"), "s3cret-pass\nignored second line\n");
    const spec = parseSpec(
      "connections:\n  lab: { host: pve1, user: root@pam, passwordFile: pve-password, validateCerts: false }\n",
      specFile,
    );
    const options = resolveConnection(spec, "lab", {});
    assert.equal(options.password, "s3cret-pass");
    assert.equal(options.validateCerts, false);
  });

  it("explains a missing variable or file without showing any secret", async () => {
    const spec = parseSpec(
      [
        "connections:",
        "  env: { host: pve1, user: ci@pve, tokenId: ci, tokenSecretEnv: PVE_LAB_SECRET }",
        `  file: { host: pve1, user: ci@pve, tokenId: ci, tokenSecretFile: ${join(dir, "nope")} }`,
        `  empty: { host: pve1, user: ci@pve, tokenId: ci, tokenSecretFile: ${join(dir, "empty")} }`,
      ].join("\n"),
      join(dir, "lab.yaml"),
    );
    await writeFile(join(dir, "empty"), "\n");
    assert.equal(
      failure(() => resolveConnection(spec, "env", { PVE_LAB_SECRET: "" })),
      `connection \`env\` (${join(dir, "lab.yaml")}:2:3): tokenSecretEnv names the environment variable PVE_LAB_SECRET, which is not set (or empty); export it before running pvectl`,
    );
    assert.equal(
      failure(() => resolveConnection(spec, "file", {})),
      `connection \`file\` (${join(dir, "lab.yaml")}:3:3): tokenSecretFile ${join(dir, "nope")} cannot be used: it does not exist`,
    );
    assert.equal(
      failure(() => resolveConnection(spec, "empty", {})),
      `connection \`empty\` (${join(dir, "lab.yaml")}:4:3): tokenSecretFile ${join(dir, "empty")} is empty; its first line must hold the secret`,
    );
    assert.equal(
      failure(() => resolveConnection(spec, "prod", {})),
      "connection `prod` is not defined in the spec (defined: empty, env, file)",
    );
  });
});
