// One HTTP exchange with the API, nothing more: no auth decisions, no retries. Returns the
// status, PVE's reason phrase (older PVE puts its error message only there) and the parsed
// JSON envelope; throws the low-level error when no response arrived (the exchange itself is
// util/http, shared with the NetBox client). Optionally reports each exchange (method, path,
// status, time; secrets masked) to a request log, for `--verbose`.
import { exchange, RequestTimeout } from "../util/http/exchange.js";
import type { ConnectionPool } from "../util/http/pool.js";
import { SecretScrubber } from "./secrets.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Envelope {
  data?: unknown;
  message?: string;
  errors?: Record<string, string>;
  total?: number;
  [key: string]: unknown;
}

export interface RawResponse {
  status: number;
  statusText: string;
  envelope: Envelope | undefined;
}

export interface SendOptions {
  pool: ConnectionPool;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One finished exchange, for `--verbose`: no headers, no body, and the path already scrubbed. */
export interface RequestLogEntry {
  method: HttpMethod;
  path: string;
  /** The HTTP status, or why no response came (a timeout, ECONNREFUSED ...). */
  status: number | string;
  ms: number;
}

let requestLog: ((entry: RequestLogEntry) => void) | undefined;

/** Every exchange of every client is reported to `sink` (undefined: stop). Used by `--verbose`. */
export function setRequestLog(sink: ((entry: RequestLogEntry) => void) | undefined): void {
  requestLog = sink;
}

/** What this request carries that must never be shown: header credentials and secret-looking form values. */
function scrubberFor(options: SendOptions): SecretScrubber {
  const scrubber = new SecretScrubber();
  for (const value of Object.values(options.headers)) {
    scrubber.add(value);
    // `PVEAPIToken=user@realm!name=SECRET`, `PVEAuthCookie=TICKET`: the part after the last `=`.
    scrubber.add(value.slice(value.lastIndexOf("=") + 1));
  }
  for (const [key, value] of new URLSearchParams(options.body ?? "")) {
    if (/pass|secret|otp|ticket|token|key/i.test(key)) scrubber.add(value);
  }
  return scrubber;
}

function logExchange(options: SendOptions, started: number, status: number | string): void {
  if (!requestLog) return;
  const url = new URL(options.url);
  const path = scrubberFor(options).scrub(`${url.pathname}${url.search}`);
  requestLog({ method: options.method, path, status, ms: Math.round(performance.now() - started) });
}

export async function send(options: SendOptions): Promise<RawResponse> {
  const started = performance.now();
  try {
    const { pool, ...request } = options;
    const response = await exchange(pool, request);
    logExchange(options, started, response.status);
    return { status: response.status, statusText: response.statusText, envelope: parseEnvelope(response.text) };
  } catch (err) {
    logExchange(options, started, err instanceof RequestTimeout ? "timeout" : ((err as { code?: string }).code ?? "no response"));
    throw err;
  }
}

function parseEnvelope(text: string): Envelope | undefined {
  if (text.trim() === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Envelope) : undefined;
  } catch {
    return undefined;
  }
}
