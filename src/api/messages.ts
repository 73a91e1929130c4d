// Turns what went wrong on the wire into a PveError whose message a person can act on:
// what failed, against which host or path, why, and what to do next. Every text passes
// through the secret scrubber first.
import { errorCode, RequestTimeout } from "../util/http/exchange.js";
import { TlsRejection } from "../util/http/tls.js";
import { PveError, parsePermissionFailure } from "./errors.js";
import type { RawResponse } from "./transport.js";

export interface CallContext {
  method: string;
  /** Concrete path below /api2/json. */
  path: string;
  /** `https://host:port` */
  origin: string;
  /** `root@pam` or `automation@pve!ci`. */
  identity: string;
  authKind: "token" | "ticket";
  scrub: (text: string) => string;
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused (nothing listens on that port, or a firewall rejects it)",
  ENOTFOUND: "the host name does not resolve (DNS lookup failed)",
  EAI_AGAIN: "the host name could not be resolved right now (DNS not answering)",
  EHOSTUNREACH: "no route to the host",
  ENETUNREACH: "the network is unreachable",
  ETIMEDOUT: "the connection timed out",
  CONNECT_TIMEOUT: "the connection timed out (no answer from the host; a firewall may drop the packets)",
  ECONNRESET: "the connection was reset by the server",
  EPIPE: "the connection was closed by the server",
  POOL_CLOSED: "the client was closed while the request waited for a connection",
};

/** Error codes of failures that may go away on their own (worth retrying a read). */
export const TRANSIENT_CODES = new Set(["ECONNRESET", "EPIPE", "ETIMEDOUT", "EAI_AGAIN"]);

function where(ctx: CallContext): string {
  return `${ctx.method} ${ctx.path}`;
}

function tlsError(err: TlsRejection, ctx: CallContext): PveError {
  const fp = err.serverFingerprint;
  const shown = fp ? `The server presented a certificate with SHA-256 fingerprint\n  ${fp}\n` : "";
  const next =
    err.reason === "pin-mismatch"
      ? "This is not the certificate you pinned: either the node's certificate was renewed (compare with `pvenode cert info` on the node and update PROXMOX_FINGERPRINT) or something else answers at this address. Nothing was sent."
      : `If that is your node's certificate (compare with \`pvenode cert info\` on the node), pin it:\n  PROXMOX_FINGERPRINT=${fp ?? "<sha256 fingerprint>"}\nor trust the cluster CA with PROXMOX_CA_PATH=<copy of /etc/pve/pve-root-ca.pem>. Nothing was sent.`;
  return new PveError({
    kind: "tls",
    method: ctx.method,
    path: ctx.path,
    code: err.reason === "pin-mismatch" ? "PIN_MISMATCH" : "UNTRUSTED_CERT",
    ...(fp ? { serverFingerprint: fp } : {}),
    message: ctx.scrub(`TLS verification of ${ctx.origin} failed: ${err.detail}.\n${shown}${next}`),
  });
}

/** A request that got no HTTP response. */
export function transportError(err: unknown, ctx: CallContext, timeoutMs: number): PveError {
  if (err instanceof PveError) return err;
  if (err instanceof TlsRejection) return tlsError(err, ctx);
  if (err instanceof RequestTimeout) {
    return new PveError({
      kind: "timeout",
      method: ctx.method,
      path: ctx.path,
      code: "TIMEOUT",
      message: ctx.scrub(
        `${where(ctx)} on ${ctx.origin} got no answer within ${timeoutMs / 1000} s. The node may be overloaded or the request slow; retry, or raise the timeout (PROXMOX_API_TIMEOUT, in seconds).` +
          (ctx.method === "GET" ? "" : " The change may still have been applied: check before repeating it."),
      ),
    });
  }
  const code = errorCode(err);
  const reason = code ? CONNECTION_CODES[code] : undefined;
  if (code && /^(ERR_SSL|EPROTO|ERR_TLS)/.test(code)) {
    return new PveError({
      kind: "tls",
      method: ctx.method,
      path: ctx.path,
      code,
      message: ctx.scrub(
        `TLS handshake with ${ctx.origin} failed (${code}). Check that PROXMOX_HOST and PROXMOX_PORT point to the PVE API (HTTPS on port 8006), not to another service.`,
      ),
    });
  }
  const text = err instanceof Error ? err.message : String(err);
  return new PveError({
    kind: "connection",
    method: ctx.method,
    path: ctx.path,
    ...(code ? { code } : {}),
    message: ctx.scrub(
      `cannot connect to ${ctx.origin}: ${reason ?? text}. Check that PROXMOX_HOST and PROXMOX_PORT name a Proxmox VE node (the API listens on port 8006), that it is up and that pveproxy runs on it.`,
    ),
  });
}

function pveMessageOf(res: RawResponse): string {
  const fromBody = typeof res.envelope?.message === "string" ? res.envelope.message.trim() : "";
  return fromBody || res.statusText.trim() || `HTTP ${res.status}`;
}

function paramErrorsOf(res: RawResponse): Record<string, string> | undefined {
  const errors = res.envelope?.errors;
  if (!errors || typeof errors !== "object") return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) out[key] = String(value).trim();
  return Object.keys(out).length > 0 ? out : undefined;
}

function grantHint(ctx: CallContext, path: string, privilege: string): string {
  const privs = privilege.split("|");
  const needs = privs.length > 1 ? `any of the privileges ${privs.join(", ")}` : `the privilege ${privilege}`;
  if (ctx.authKind === "token") {
    const user = ctx.identity.split("!")[0];
    return (
      `The API token ${ctx.identity} lacks ${needs} on ${path}. Grant a role that has it, e.g.\n` +
      `  pveum acl modify ${path} --tokens '${ctx.identity}' --roles <role>\n` +
      `A token with privilege separation needs the grant itself and its user ${user} must have it too.`
    );
  }
  return (
    `The user ${ctx.identity} lacks ${needs} on ${path}. Grant a role that has it, e.g.\n` +
    `  pveum acl modify ${path} --users '${ctx.identity}' --roles <role>`
  );
}

/** A response that is not 2xx. */
export function httpError(res: RawResponse, ctx: CallContext): PveError {
  const pveMessage = pveMessageOf(res);
  const paramErrors = paramErrorsOf(res);
  const base = { method: ctx.method, path: ctx.path, status: res.status, pveMessage: ctx.scrub(pveMessage) };
  if (res.status === 401) {
    const what =
      ctx.authKind === "token"
        ? `Check PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET: the token ${ctx.identity} must exist with that secret, not be expired, and its user must be enabled.`
        : `Check PROXMOX_USER (with its realm, e.g. root@pam) and PROXMOX_PASSWORD, and that the user is enabled.`;
    return new PveError({
      kind: "auth",
      ...base,
      message: ctx.scrub(`authentication as ${ctx.identity} failed at ${ctx.origin} (${res.status} ${pveMessage}). ${what}`),
    });
  }
  if (res.status === 403) {
    const permission = parsePermissionFailure(pveMessage);
    const hint = permission
      ? grantHint(ctx, permission.path, permission.privilege)
      : `PVE refused this for ${ctx.identity}; check the ACLs of that ${ctx.authKind === "token" ? "token" : "user"} (pveum user permissions '${ctx.identity}').`;
    return new PveError({
      kind: "permission",
      ...base,
      ...(permission ? { permission } : {}),
      message: ctx.scrub(`${where(ctx)} was refused: ${pveMessage}.\n${hint}`),
    });
  }
  const lines = paramErrors ? Object.entries(paramErrors).map(([key, value]) => `\n  ${key}: ${value}`) : [];
  const next =
    res.status === 501
      ? " This PVE version does not offer that endpoint or method."
      : res.status >= 595
        ? " The node that should handle the request could not be reached through this one; check that all cluster nodes are up."
        : "";
  return new PveError({
    kind: "http",
    ...base,
    ...(paramErrors ? { paramErrors: Object.fromEntries(Object.entries(paramErrors).map(([k, v]) => [k, ctx.scrub(v)])) } : {}),
    message: ctx.scrub(`${where(ctx)} failed: ${res.status} ${pveMessage}${lines.join("")}${next}`),
  });
}
