// Which server certificate is acceptable, decided on each new connection before it carries a
// request (pool.ts). Node's own `checkServerIdentity` is not enough for a pin (it is only
// called after the chain verified), so the policy looks at the certificate itself: with a pin,
// exactly that certificate; otherwise the chain (system or given CA) and host name must verify,
// unless verification was explicitly switched off. Where the rule comes from (PROXMOX_* or the
// NetBox config), and what a refusal tells the user, is each client's business.
import type { TLSSocket } from "node:tls";

/** The server's certificate was refused; carries what the user needs to decide to trust it. */
export class TlsRejection extends Error {
  /** `PIN_MISMATCH`, or Node's verification code (DEPTH_ZERO_SELF_SIGNED_CERT ...). */
  readonly code: string;

  constructor(
    readonly reason: "untrusted" | "pin-mismatch",
    readonly detail: string,
    readonly serverFingerprint: string | undefined,
    code: string,
  ) {
    super(`TLS certificate refused: ${detail}`);
    this.name = "TlsRejection";
    this.code = code;
  }
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

export interface CertificateRule {
  /** SHA-256 fingerprint as Node prints it (`AA:BB:...`): exactly that certificate is accepted. */
  fingerprint?: string;
  /** PEM text of the CAs to trust instead of the system's. */
  ca?: string;
  /** false: any certificate is accepted (the caller warns about it where it should). */
  verify: boolean;
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

function checkCertificate(socket: TLSSocket, rule: CertificateRule): TlsRejection | undefined {
  const fingerprint = socket.getPeerX509Certificate()?.fingerprint256;
  if (rule.fingerprint) {
    if (fingerprint === rule.fingerprint) return undefined;
    return new TlsRejection(
      "pin-mismatch",
      `the certificate's SHA-256 fingerprint ${fingerprint ?? "(none)"} is not the pinned ${rule.fingerprint}`,
      fingerprint,
      "PIN_MISMATCH",
    );
  }
  if (!rule.verify || socket.authorized) return undefined;
  const raw = socket.authorizationError;
  const code = raw instanceof Error ? ((raw as NodeJS.ErrnoException).code ?? raw.message) : String(raw);
  return new TlsRejection("untrusted", `${describeAuthorizationError(code)} (${code})`, fingerprint, code);
}

/** The policy that enforces `rule`. */
export function certificatePolicy(rule: CertificateRule): TlsPolicy {
  const trusted = rule.ca ?? (rule.fingerprint || !rule.verify ? [] : undefined);
  return { ...(trusted !== undefined ? { ca: trusted } : {}), check: (socket) => checkCertificate(socket, rule) };
}
