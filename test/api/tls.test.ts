// TLS policy: verified by default, a CA file, a SHA-256 pin that accepts exactly one
// certificate, and verification switched off only explicitly, with one warning.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { type TestCerts, testCerts } from "../support/api/certs.js";
import { ok, startServer, type TestServer } from "../support/api/server.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";
const token = { user: "automation@pve", tokenId: "ci", tokenSecret: SECRET };

describe("TLS", () => {
  let certs: TestCerts;
  let selfSigned: TestServer;
  let caSigned: TestServer;

  before(async () => {
    certs = await testCerts();
    const handler = () => ok({ version: "9.1.1", release: "9.1", repoid: "abc" });
    selfSigned = await startServer(handler, certs.selfSigned);
    caSigned = await startServer(handler, certs.server);
  });
  after(async () => {
    await selfSigned.close();
    await caSigned.close();
  });

  it("refuses a self-signed certificate by default and shows its fingerprint and how to pin it", async () => {
    const client = new PveClient({ host: "127.0.0.1", port: selfSigned.port, ...token });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.equal(err.serverFingerprint, certs.selfSigned.fingerprint256);
    assert.equal(
      err.userMessage(),
      `TLS verification of https://127.0.0.1:${selfSigned.port} failed: the server's certificate is self-signed and not trusted (DEPTH_ZERO_SELF_SIGNED_CERT).\n` +
        `The server presented a certificate with SHA-256 fingerprint\n  ${certs.selfSigned.fingerprint256}\n` +
        "If that is your node's certificate (compare with `pvenode cert info` on the node), pin it:\n" +
        `  PROXMOX_FINGERPRINT=${certs.selfSigned.fingerprint256}\n` +
        "or trust the cluster CA with PROXMOX_CA_PATH=<copy of /etc/pve/pve-root-ca.pem>. Nothing was sent.",
    );
    assert.ok(!err.message.includes(SECRET));
    assert.equal(selfSigned.seen.length, 0, "no request reached the server");
  });

  it("refuses a certificate signed by an unknown CA", async () => {
    const client = new PveClient({ host: "127.0.0.1", port: caSigned.port, ...token });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.match(err.message, /issued by a CA that is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
    assert.equal(err.serverFingerprint, certs.server.fingerprint256);
  });

  it("refuses a CA-signed certificate issued for another host name", async () => {
    const other = await startServer(() => ok(null), certs.otherName);
    const client = new PveClient({ host: "127.0.0.1", port: other.port, ...token, caPath: certs.caPath });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    await other.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.match(err.message, /: the server's certificate is not valid for this host name \(ERR_TLS_CERT_ALTNAME_INVALID\)\.\n/);
    assert.equal(err.serverFingerprint, certs.otherName.fingerprint256);
  });

  it("accepts the right pin, given as colon-separated or plain lowercase hex", async () => {
    for (const fingerprint of [certs.selfSigned.fingerprint256, certs.selfSigned.fingerprint256.replace(/:/g, "").toLowerCase()]) {
      const client = new PveClient({ host: "127.0.0.1", port: selfSigned.port, ...token, fingerprint });
      assert.deepEqual(await client.get("/version"), { version: "9.1.1", release: "9.1", repoid: "abc" });
      await client.close();
    }
  });

  it("refuses a wrong pin, even for a certificate that the CA would accept, and sends nothing", async () => {
    const before = caSigned.seen.length;
    const client = new PveClient({
      host: "127.0.0.1",
      port: caSigned.port,
      ...token,
      caPath: certs.caPath,
      fingerprint: certs.selfSigned.fingerprint256,
    });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.equal(err.code, "PIN_MISMATCH");
    assert.equal(
      err.userMessage(),
      `TLS verification of https://127.0.0.1:${caSigned.port} failed: the certificate's SHA-256 fingerprint ${certs.server.fingerprint256} is not the pinned ${certs.selfSigned.fingerprint256}.\n` +
        `The server presented a certificate with SHA-256 fingerprint\n  ${certs.server.fingerprint256}\n` +
        "This is not the certificate you pinned: either the node's certificate was renewed (compare with `pvenode cert info` on the node and update PROXMOX_FINGERPRINT) or something else answers at this address. Nothing was sent.",
    );
    assert.equal(caSigned.seen.length, before);
  });

  it("refuses a wrong pin even when verification is switched off", async () => {
    const client = new PveClient({
      host: "127.0.0.1",
      port: selfSigned.port,
      ...token,
      validateCerts: false,
      fingerprint: certs.server.fingerprint256,
      warn: () => {},
    });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.code, "PIN_MISMATCH");
  });

  it("accepts a server certificate issued by the CA in caPath", async () => {
    const client = new PveClient({ host: "127.0.0.1", port: caSigned.port, ...token, caPath: certs.caPath });
    assert.equal(((await client.get("/version")) as { release: string }).release, "9.1");
    await client.close();
  });

  it("explains an unreadable CA file", () => {
    assert.throws(
      () => new PveClient({ host: "127.0.0.1", ...token, caPath: "/nonexistent/ca.pem" }),
      (err: unknown) =>
        err instanceof PveError &&
        err.kind === "config" &&
        err.message ===
          "cannot read the CA file PROXMOX_CA_PATH='/nonexistent/ca.pem' (ENOENT); give a readable PEM file, e.g. a copy of /etc/pve/pve-root-ca.pem from a node",
    );
  });

  it("rejects a malformed pin before connecting", () => {
    assert.throws(
      () => new PveClient({ host: "127.0.0.1", ...token, fingerprint: "AB:CD" }),
      /the certificate fingerprint 'AB:CD' is not a SHA-256 fingerprint \(64 hex digits/,
    );
  });

  it("connects without verification only when told, warning once per host", async () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const first = new PveClient({ host: "127.0.0.1", port: selfSigned.port, ...token, validateCerts: false, warn });
    const second = new PveClient({ host: "127.0.0.1", port: selfSigned.port, ...token, validateCerts: false, warn });
    assert.equal(((await first.get("/version")) as { version: string }).version, "9.1.1");
    assert.equal(((await second.get("/version")) as { version: string }).version, "9.1.1");
    await first.close();
    await second.close();
    assert.equal(warnings.length, 1);
    assert.equal(
      warnings[0],
      `TLS certificate verification is OFF for https://127.0.0.1:${selfSigned.port} (validateCerts=false / PROXMOX_VALIDATE_CERTS=false): ` +
        "anyone on the network path can read the credentials and change what is sent. " +
        "Pin the node's certificate instead with PROXMOX_FINGERPRINT (pvectl shows it when verification fails), or trust its CA with PROXMOX_CA_PATH.",
    );
  });

  it("explains talking HTTPS to a plain HTTP port", async () => {
    const plain = await startServer(() => ok(null));
    const client = new PveClient({ host: "127.0.0.1", port: plain.port, ...token });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    await plain.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.match(
      err.message,
      new RegExp(
        `^TLS handshake with https://127.0.0.1:${plain.port} failed \\(\\w+\\)\\. Check that PROXMOX_HOST and PROXMOX_PORT point to the PVE API \\(HTTPS on port 8006\\), not to another service\\.$`,
      ),
    );
  });
});
