// Certificates for TLS tests, generated at test time (no private key is ever committed):
// a CA with a server certificate it signed, and an unrelated self-signed certificate.
import { X509Certificate } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

export interface TestCerts {
  caCert: string;
  caPath: string;
  /** Signed by the CA, valid for 127.0.0.1 and localhost. */
  server: { key: string; cert: string; fingerprint256: string };
  /** Signed by the CA but for another host name (pve-other.example). */
  otherName: { key: string; cert: string; fingerprint256: string };
  /** Self-signed, like a fresh PVE node's default certificate as seen by a client without its CA. */
  selfSigned: { key: string; cert: string; fingerprint256: string };
}

let cached: Promise<TestCerts> | undefined;

const SAN = {
  name: "subjectAltName" as const,
  altNames: [
    { type: 2 as const, value: "localhost" },
    { type: 7 as const, ip: "127.0.0.1" },
  ],
};

async function build(): Promise<TestCerts> {
  const ec = { keyType: "ec" as const, curve: "P-256" as const, algorithm: "sha256" };
  const ca = await generate([{ name: "commonName", value: "pvectl test CA" }], {
    ...ec,
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true },
    ],
  });
  const server = await generate([{ name: "commonName", value: "localhost" }], {
    ...ec,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [SAN],
  });
  const other = await generate([{ name: "commonName", value: "pve-other.example" }], {
    ...ec,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "pve-other.example" }] }],
  });
  const self = await generate([{ name: "commonName", value: "pve-selfsigned" }], { ...ec, extensions: [SAN] });
  const dir = mkdtempSync(join(tmpdir(), "pvectl-ca-"));
  const caPath = join(dir, "ca.pem");
  writeFileSync(caPath, ca.cert);
  const fp = (pem: string) => new X509Certificate(pem).fingerprint256;
  return {
    caCert: ca.cert,
    caPath,
    server: { key: server.private, cert: server.cert, fingerprint256: fp(server.cert) },
    otherName: { key: other.private, cert: other.cert, fingerprint256: fp(other.cert) },
    selfSigned: { key: self.private, cert: self.cert, fingerprint256: fp(self.cert) },
  };
}

export function testCerts(): Promise<TestCerts> {
  cached ??= build();
  return cached;
}
