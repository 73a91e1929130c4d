// A CA file (PROXMOX_CA_PATH or a spec connection's caPath) that holds no certificate is an
// error that says so, not a file silently ignored.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";

const token = { user: "automation@pve", tokenId: "ci", tokenSecret: "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50" };
const dir = mkdtempSync(join(tmpdir(), "pvectl-ca-"));

function caFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function configError(caPath: string): PveError {
  try {
    new PveClient({ host: "127.0.0.1", ...token, caPath });
  } catch (err) {
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "config");
    return err;
  }
  assert.fail("the client accepted the CA file");
}

describe("CA file without a certificate", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("an empty file is refused, naming the file", () => {
    const path = caFile("empty.pem", "");
    assert.equal(
      configError(path).userMessage(),
      `the CA file PROXMOX_CA_PATH='${path}' holds no PEM certificate (no -----BEGIN CERTIFICATE----- block); ` +
        "give the PEM file of the CA that signed the node's certificate, e.g. a copy of /etc/pve/pve-root-ca.pem from a node",
    );
  });

  it("a private key instead of a certificate is refused", () => {
    const path = caFile("key.pem", "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n");
    assert.match(configError(path).message, /holds no PEM certificate/);
  });

  it("a damaged certificate block is refused", () => {
    const path = caFile("bad.pem", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n");
    assert.match(configError(path).message, /holds a certificate block that is not a valid X\.509 certificate/);
  });
});
