// The PVE connection's TLS policy from its options: the pin (PROXMOX_FINGERPRINT), the CA
// (PROXMOX_CA_PATH, checked here so that a broken file is reported in PVE's terms) and
// verification switched off only explicitly, with one warning. The check itself, shared with
// the NetBox client, is util/http/tls.ts.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { certificatePolicy, type TlsPolicy } from "../util/http/tls.js";
import { PveError } from "./errors.js";
import type { ResolvedOptions } from "./options.js";

const warnedInsecure = new Set<string>();

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA text, refused when it holds no usable certificate: Node would accept such a file
 * without complaint and then distrust every server, or (worse) the operator would believe a
 * CA is pinned when it is not.
 */
function checkedCa(text: string, where: string): string {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  const problem =
    blocks.length === 0
      ? "holds no PEM certificate (no -----BEGIN CERTIFICATE----- block)"
      : blocks.some((block) => !parses(block))
        ? "holds a certificate block that is not a valid X.509 certificate"
        : undefined;
  if (problem === undefined) return text;
  throw new PveError({
    kind: "config",
    message: `the CA ${where} ${problem}; give the PEM file of the CA that signed the node's certificate, e.g. a copy of /etc/pve/pve-root-ca.pem from a node`,
  });
}

function parses(pem: string): boolean {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

function readCa(options: ResolvedOptions): string | undefined {
  if (options.ca) return checkedCa(options.ca, "certificate text given to the client");
  if (!options.caPath) return undefined;
  let text: string;
  try {
    text = readFileSync(options.caPath, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new PveError({
      kind: "config",
      message: `cannot read the CA file PROXMOX_CA_PATH='${options.caPath}' (${code}); give a readable PEM file, e.g. a copy of /etc/pve/pve-root-ca.pem from a node`,
    });
  }
  return checkedCa(text, `file PROXMOX_CA_PATH='${options.caPath}'`);
}

/** The policy for `options` (undefined for plain HTTP); warns once per host when verification is off. */
export function tlsPolicy(options: ResolvedOptions): TlsPolicy | undefined {
  if (options.protocol !== "https") return undefined;
  // Read (and checked) even with a pin, so that a broken PROXMOX_CA_PATH is reported either way.
  const ca = readCa(options);
  if (!options.validateCerts && !options.fingerprint && !warnedInsecure.has(options.origin)) {
    warnedInsecure.add(options.origin);
    options.warn(
      `TLS certificate verification is OFF for ${options.origin} (validateCerts=false / PROXMOX_VALIDATE_CERTS=false): ` +
        "anyone on the network path can read the credentials and change what is sent. " +
        "Pin the node's certificate instead with PROXMOX_FINGERPRINT (pvectl shows it when verification fails), or trust its CA with PROXMOX_CA_PATH.",
    );
  }
  return certificatePolicy({
    ...(options.fingerprint ? { fingerprint: options.fingerprint } : {}),
    ...(ca !== undefined ? { ca } : {}),
    verify: options.validateCerts,
  });
}
