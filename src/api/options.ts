// How to reach and authenticate to a PVE node: options, the PROXMOX_* environment variables
// (the names community.proxmox reads, so existing Ansible setups work unchanged), and the
// checks that turn a half-filled configuration into one clear message.
import { isIP } from "node:net";
import { PveError } from "./errors.js";

export interface PveClientOptions {
  /** Host name or address; `host:port` and `https://host:port` are accepted too. */
  host: string;
  /** Default 8006. */
  port?: number;
  /** `user@realm`; with a token, the token's owner. */
  user?: string;
  password?: string;
  /** Full token id `user@realm!name`, or only `name` (combined with `user`, as community.proxmox does). */
  tokenId?: string;
  tokenSecret?: string;
  /** Default true. Turning it off is allowed but warned about (once per host). */
  validateCerts?: boolean;
  /** PEM file with the CA (or the node's own certificate) to trust. */
  caPath?: string;
  /** PEM text of the CA to trust (alternative to caPath). */
  ca?: string;
  /** SHA-256 fingerprint of the server certificate, `AA:BB:...` or plain hex: only that certificate is accepted. */
  fingerprint?: string;
  /** Per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  /** Maximum parallel connections to the host (default 8). */
  connections?: number;
  /** One-time password for users whose realm needs a second factor (TOTP). */
  otp?: string;
  /** `https` (default) or `http` (plain HTTP only makes sense for a local simulator). */
  protocol?: "https" | "http";
  /**
   * Plain HTTP to a host that is not loopback is refused (the credentials would cross the
   * network unencrypted) unless this is true: `--allow-http`, or PVECTL_ALLOW_HTTP=true.
   */
  allowHttp?: boolean;
  /** Retries of a failed read (GET) on a transient failure; default 2. Writes are never retried. */
  readRetries?: number;
  /** Where warnings go (default: stderr). */
  warn?: (message: string) => void;
  /** Current time in ms; injectable so ticket renewal can be tested without waiting two hours. */
  clock?: () => number;
}

export const DEFAULT_PORT = 8006;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECTIONS = 8;
/** community.proxmox defaults api_user to root@pam when only a token name is given. */
const DEFAULT_TOKEN_USER = "root@pam";

const TRUE_WORDS = new Set(["1", "true", "yes", "on", "y"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off", "n"]);

function configError(message: string): PveError {
  return new PveError({ kind: "config", message });
}

function parseBool(name: string, raw: string): boolean {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw configError(`${name}='${raw}' is not a boolean; use true or false`);
}

function parsePort(name: string, raw: string | number): number {
  const port = typeof raw === "number" ? raw : /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw configError(`${name}='${raw}' is not a TCP port; use a number from 1 to 65535 (PVE listens on 8006)`);
  }
  return port;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

interface EnvReading {
  options: Partial<PveClientOptions>;
  problems: string[];
}

function readEnvironment(env: NodeJS.ProcessEnv): EnvReading {
  const problems: string[] = [];
  const options: Partial<PveClientOptions> = {};
  const host = nonEmpty(env.PROXMOX_HOST);
  if (host) options.host = host;
  else problems.push("PROXMOX_HOST is not set (the name or address of a Proxmox VE node)");

  const user = nonEmpty(env.PROXMOX_USER);
  const password = nonEmpty(env.PROXMOX_PASSWORD);
  const tokenId = nonEmpty(env.PROXMOX_TOKEN_ID);
  const tokenSecret = nonEmpty(env.PROXMOX_TOKEN_SECRET);
  if (user) options.user = user;
  if (!password && !tokenId && !tokenSecret) {
    problems.push(
      "no credentials: set PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET (an API token, recommended), or PROXMOX_USER and PROXMOX_PASSWORD",
    );
  } else if (password) {
    // Password wins over a token when both are set (community.proxmox does the same).
    options.password = password;
    if (!user) problems.push("PROXMOX_PASSWORD is set but PROXMOX_USER is not (e.g. root@pam)");
  } else {
    if (tokenId) options.tokenId = tokenId;
    if (tokenSecret) options.tokenSecret = tokenSecret;
    if (tokenId && !tokenSecret) problems.push("PROXMOX_TOKEN_ID is set but PROXMOX_TOKEN_SECRET is not");
    if (tokenSecret && !tokenId) problems.push("PROXMOX_TOKEN_SECRET is set but PROXMOX_TOKEN_ID is not");
  }

  const collect = (fn: () => void): void => {
    try {
      fn();
    } catch (err) {
      problems.push(err instanceof PveError ? err.message : String(err));
    }
  };
  const port = nonEmpty(env.PROXMOX_PORT);
  if (port) collect(() => (options.port = parsePort("PROXMOX_PORT", port)));
  const validate = nonEmpty(env.PROXMOX_VALIDATE_CERTS);
  if (validate) collect(() => (options.validateCerts = parseBool("PROXMOX_VALIDATE_CERTS", validate)));
  const timeout = nonEmpty(env.PROXMOX_API_TIMEOUT);
  if (timeout) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) problems.push(`PROXMOX_API_TIMEOUT='${timeout}' is not a number of seconds`);
    else options.timeoutMs = seconds * 1000;
  }
  const caPath = nonEmpty(env.PROXMOX_CA_PATH);
  if (caPath) options.caPath = caPath;
  const fingerprint = nonEmpty(env.PROXMOX_FINGERPRINT);
  if (fingerprint) collect(() => (options.fingerprint = normalizeFingerprint(fingerprint)));
  const otp = nonEmpty(env.PROXMOX_OTP);
  if (otp) options.otp = otp;
  const allowHttp = nonEmpty(env.PVECTL_ALLOW_HTTP);
  if (allowHttp) collect(() => (options.allowHttp = parseBool("PVECTL_ALLOW_HTTP", allowHttp)));
  return { options, problems };
}

/**
 * Reads PROXMOX_HOST, PROXMOX_PORT, PROXMOX_USER, PROXMOX_PASSWORD, PROXMOX_OTP,
 * PROXMOX_TOKEN_ID, PROXMOX_TOKEN_SECRET, PROXMOX_VALIDATE_CERTS, PROXMOX_CA_PATH,
 * PROXMOX_FINGERPRINT and PROXMOX_API_TIMEOUT. Throws one error naming everything missing or malformed.
 */
export function clientOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): PveClientOptions {
  const { options, problems } = readEnvironment(env);
  if (problems.length > 0) throw configError(`cannot connect to Proxmox VE: ${problems.join("; ")}`);
  return options as PveClientOptions;
}

/** Environment values merged under explicit overrides; what is still missing is reported when resolved. */
export function mergeEnvOptions(env: NodeJS.ProcessEnv, overrides: Partial<PveClientOptions>): PveClientOptions {
  const { options, problems } = readEnvironment(env);
  const merged = { ...options, ...overrides };
  // Explicit credentials replace the environment's, rather than mixing a password with a token.
  if (overrides.password) {
    delete merged.tokenId;
    delete merged.tokenSecret;
  } else if (overrides.tokenId || overrides.tokenSecret) {
    delete merged.password;
  }
  const malformed = problems.filter((p) => !/is not set|no credentials|is set but/.test(p));
  if (malformed.length > 0) throw configError(`cannot connect to Proxmox VE: ${malformed.join("; ")}`);
  return merged as PveClientOptions;
}

/** Accepts `AA:BB:..`, `aa bb ..` or plain hex; returns `AA:BB:..` as Node prints fingerprint256. */
export function normalizeFingerprint(raw: string): string {
  const hex = raw
    .replace(/^sha256[:=\s]*/i, "")
    .replace(/[\s:-]/g, "")
    .toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) {
    throw configError(
      `the certificate fingerprint '${raw}' is not a SHA-256 fingerprint (64 hex digits, e.g. AB:CD:...); ` +
        "print the node's with `pvenode cert info` (field fingerprint) or from the error pvectl shows on a TLS mismatch",
    );
  }
  return hex.match(/../g)!.join(":");
}

export type Credentials =
  | { kind: "token"; identity: string; secret: string }
  | { kind: "ticket"; user: string; password: string; otp?: string };

export interface ResolvedOptions {
  protocol: "https" | "http";
  host: string;
  port: number;
  /** `https://host:port`, for messages and requests. */
  origin: string;
  credentials: Credentials;
  validateCerts: boolean;
  ca?: string;
  caPath?: string;
  fingerprint?: string;
  timeoutMs: number;
  connections: number;
  readRetries: number;
  warn: (message: string) => void;
  clock: () => number;
}

const REALM_USER = /^[^\s:/@]+@[A-Za-z][A-Za-z0-9.\-_]+$/;
const TOKEN_NAME = /^[A-Za-z][A-Za-z0-9.\-_]+$/;

function splitHost(raw: string, explicitPort: number | undefined, explicitProtocol: "https" | "http" | undefined) {
  let rest = raw.trim();
  let protocol = explicitProtocol ?? "https";
  const scheme = /^(https?):\/\//i.exec(rest);
  if (scheme) {
    protocol = scheme[1]!.toLowerCase() as "https" | "http";
    rest = rest.slice(scheme[0].length);
  }
  rest = rest.replace(/\/.*$/, "");
  let host = rest;
  let port = explicitPort;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  const hostPort = /^([^:]+):(\d+)$/.exec(rest);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] && port === undefined) port = parsePort("PROXMOX_HOST port", bracketed[2]);
  } else if (hostPort) {
    host = hostPort[1]!;
    if (port === undefined) port = parsePort("PROXMOX_HOST port", hostPort[2]!);
  }
  if (host === "") throw configError("PROXMOX_HOST is empty; give the name or address of a Proxmox VE node");
  return { protocol, host, port: port ?? DEFAULT_PORT };
}

/** Where options connect: scheme, host and port as the client resolves them. */
export function endpointOf(options: Pick<PveClientOptions, "host" | "port" | "protocol">): {
  protocol: "https" | "http";
  host: string;
  port: number;
  origin: string;
} {
  const port = options.port === undefined ? undefined : parsePort("port", options.port);
  const where = splitHost(options.host, port, options.protocol);
  const hostForUrl = where.host.includes(":") ? `[${where.host}]` : where.host;
  return { ...where, origin: `${where.protocol}://${hostForUrl}:${where.port}` };
}

/** This machine: 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`. Names are not resolved. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const v4 = h.replace(/^::ffff:/, "");
  return isIP(v4) === 4 && v4.startsWith("127.");
}

/**
 * Why these options may not be used over plain HTTP, or undefined: HTTPS, a loopback host
 * (a local simulator), or plain HTTP explicitly allowed.
 */
export function plainHttpRefusal(options: Pick<PveClientOptions, "host" | "port" | "protocol" | "allowHttp">): string | undefined {
  const where = endpointOf(options);
  if (where.protocol === "https" || options.allowHttp || isLoopback(where.host)) return undefined;
  return (
    `plain HTTP to ${where.origin}, which is not this machine, would send the credentials and everything else unencrypted. ` +
    "Use https:// (Proxmox VE serves HTTPS on port 8006), or, if the network path is trusted, pass --allow-http (or set PVECTL_ALLOW_HTTP=true)"
  );
}

function resolveCredentials(options: PveClientOptions): Credentials {
  const user = nonEmpty(options.user);
  if (user && !REALM_USER.test(user)) {
    throw configError(`PROXMOX_USER '${user}' is not a user id with a realm; write it as name@realm, e.g. root@pam or automation@pve`);
  }
  if (nonEmpty(options.password)) {
    if (!user) throw configError("a password is set but no user; set PROXMOX_USER (e.g. root@pam)");
    const otp = nonEmpty(options.otp);
    return { kind: "ticket", user, password: options.password!, ...(otp ? { otp } : {}) };
  }
  const tokenId = nonEmpty(options.tokenId);
  const secret = nonEmpty(options.tokenSecret);
  if (!tokenId || !secret) {
    throw configError(
      tokenId
        ? `API token ${tokenId} has no secret; set PROXMOX_TOKEN_SECRET`
        : "no credentials: set PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET (an API token, recommended), or PROXMOX_USER and PROXMOX_PASSWORD",
    );
  }
  const bang = tokenId.indexOf("!");
  const owner = bang >= 0 ? tokenId.slice(0, bang) : (user ?? DEFAULT_TOKEN_USER);
  const name = bang >= 0 ? tokenId.slice(bang + 1) : tokenId;
  if (!REALM_USER.test(owner) || !TOKEN_NAME.test(name)) {
    throw configError(
      `PROXMOX_TOKEN_ID '${tokenId}' is not a token id; use the full id user@realm!name (e.g. automation@pve!ci), or only the name with PROXMOX_USER set`,
    );
  }
  return { kind: "token", identity: `${owner}!${name}`, secret };
}

export function resolveOptions(options: PveClientOptions): ResolvedOptions {
  if (!options || typeof options.host !== "string" || options.host.trim() === "") {
    throw configError("no host given; set PROXMOX_HOST (the name or address of a Proxmox VE node)");
  }
  const { origin, ...where } = endpointOf(options);
  const refusal = plainHttpRefusal(options);
  if (refusal) throw configError(`refusing to connect: ${refusal}`);
  const credentials = resolveCredentials(options);
  const fingerprint = nonEmpty(options.fingerprint);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw configError(`timeout ${timeoutMs} ms is not positive`);
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  if (!Number.isInteger(connections) || connections < 1) {
    throw configError(`connections=${connections} must be a positive integer`);
  }
  return {
    ...where,
    origin,
    credentials,
    validateCerts: options.validateCerts ?? true,
    ...(options.ca ? { ca: options.ca } : {}),
    ...(nonEmpty(options.caPath) ? { caPath: options.caPath! } : {}),
    ...(fingerprint ? { fingerprint: normalizeFingerprint(fingerprint) } : {}),
    timeoutMs,
    connections,
    readRetries: options.readRetries ?? 2,
    warn: options.warn ?? ((message) => process.stderr.write(`warning: ${message}\n`)),
    clock: options.clock ?? Date.now,
  };
}

/** Who the client acts as, for hints: never contains a secret. */
export function identityOf(credentials: Credentials): string {
  return credentials.kind === "token" ? credentials.identity : credentials.user;
}
