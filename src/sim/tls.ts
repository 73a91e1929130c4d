// The simulator's HTTPS certificate: like PVE (pve-root-ca + pve-ssl), a CA generated at start
// signs the server certificate, so clients can trust the CA (`ca`) or pin the server
// certificate's SHA-256 fingerprint. Callers may bring their own certificate and key instead.
import { X509Certificate } from "node:crypto";

export interface TlsMaterial {
  cert: string;
  key: string;
  /** PEM clients can trust (the generated CA, or the given certificate). */
  ca: string;
  /** SHA-256 fingerprint of the server certificate, "AA:BB:...". */
  fingerprint: string;
}

export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

export async function generateTls(hosts: string[]): Promise<TlsMaterial> {
  // Loaded on demand: the certificate library takes about a second to load, which every pvectl
  // command would otherwise pay at start-up although only an HTTPS simulator needs it.
  const { generate } = await import("selfsigned");
  const ca = await generate([{ name: "commonName", value: "pvectl simulator CA" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const altNames = [{ type: 2 as const, value: "localhost" }];
  const ips = new Set(["127.0.0.1", "::1"]);
  for (const h of hosts) {
    if (/^[\d.]+$/.test(h) || h.includes(":")) ips.add(h);
    else if (h && h !== "localhost") altNames.push({ type: 2 as const, value: h });
  }
  const server = await generate([{ name: "commonName", value: "pvesim" }], {
    keyType: "ec",
    algorithm: "sha256",
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [...altNames, ...[...ips].filter((ip) => ip !== "0.0.0.0" && ip !== "::").map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  return { cert: `${server.cert.trim()}\n${ca.cert.trim()}\n`, key: server.private, ca: ca.cert, fingerprint: fingerprintOf(server.cert) };
}

export function tlsFromFiles(cert: string, key: string): TlsMaterial {
  return { cert, key, ca: cert, fingerprint: fingerprintOf(cert) };
}
