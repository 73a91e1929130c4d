// The TLS policy: which server certificate is acceptable, decided on each new connection before
// it carries a request (pool.ts). Node's own `checkServerIdentity` is not enough for a pin (it
// is only called after the chain verified), so the policy looks at the certificate itself:
// with a pin, exactly that certificate; otherwise the chain (system or given CA) and host name
// must verify, unless verification was explicitly switched off.
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import type { TLSSocket } from "node:tls";
import { PveError } from "./errors.js";
import type { ResolvedOptions } from "./options.js";

/** The server's certificate was refused; carries what the user needs to decide to trust it. */
export class TlsRejection extends Error {
  constructor(
    readonly reason: "untrusted" | "pin-mismatch",
    readonly detail: string,
    readonly serverFingerprint: string | undefined,
  ) {
    super(`TLS certificate refused: ${detail}`);
    this.name = "TlsRejection";
  }
}

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

function describeAuthorizationError(code: string): string {
  switch (code) {
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
      return "the server's certificate is self-signed and not trusted";
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
      return "the server's certificate was issued by a CA that is not trusted";
    case "CERT_HAS_EXPIRED":
      return "the server's certificate has expired";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return "the server's certificate is not valid for this host name";
    default:
      return `the server's certificate did not verify`;
  }
}

function checkCertificate(socket: TLSSocket, options: ResolvedOptions): TlsRejection | undefined {
  const fingerprint = socket.getPeerX509Certificate()?.fingerprint256;
  if (options.fingerprint) {
    if (fingerprint === options.fingerprint) return undefined;
    return new TlsRejection(
      "pin-mismatch",
      `the certificate's SHA-256 fingerprint ${fingerprint ?? "(none)"} is not the pinned ${options.fingerprint}`,
      fingerprint,
    );
  }
  if (!options.validateCerts || socket.authorized) return undefined;
  const raw = socket.authorizationError;
  const code = raw instanceof Error ? ((raw as NodeJS.ErrnoException).code ?? raw.message) : String(raw);
  return new TlsRejection("untrusted", `${describeAuthorizationError(code)} (${code})`, fingerprint);
}

export interface TlsPolicy {
  /**
   * The CAs the handshake verifies against; undefined: the system's. With a pin (or verification
   * off) the chain decides nothing, and loading the system's root store would only cost start-up time.
   */
  ca?: string | string[];
  /** Why the connection's certificate is refused, or undefined when it is accepted. */
  check(socket: TLSSocket): TlsRejection | undefined;
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
  const trusted = ca ?? (options.fingerprint || !options.validateCerts ? [] : undefined);
  return { ...(trusted !== undefined ? { ca: trusted } : {}), check: (socket) => checkCertificate(socket, options) };
}
