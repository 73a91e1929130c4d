// One HTTP exchange with the API, nothing more: no auth decisions, no retries. Returns the
// status, PVE's reason phrase (older PVE puts its error message only there) and the parsed
// JSON envelope; throws the low-level error when no response arrived. Optionally reports each
// exchange (method, path, status, time; secrets masked) to a request log, for `--verbose`.
import type { IncomingMessage } from "node:http";
import type { ConnectionPool } from "./pool.js";
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

/** Marks an attempt ended by our own per-request timeout. */
export class RequestTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
    this.name = "RequestTimeout";
  }
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
    const response = await exchange(options);
    logExchange(options, started, response.status);
    return response;
  } catch (err) {
    logExchange(options, started, err instanceof RequestTimeout ? "timeout" : ((err as { code?: string }).code ?? "no response"));
    throw err;
  }
}

/**
 * The request, and its answer read whole. `timeoutMs` bounds each wait for the server (for the
 * headers, then between pieces of the body) with the socket's own idle timer: no extra timer or
 * AbortController per request. A caller's signal (task waits) ends it with the signal's reason.
 */
function exchange(options: SendOptions): Promise<RawResponse> {
  const { signal } = options;
  return options.pool.run(
    () =>
      new Promise<RawResponse>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        let settled = false;
        const settle = (err: unknown, response?: RawResponse): void => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener("abort", onAbort);
          if (response) resolve(response);
          else reject(err);
        };
        const headers: Record<string, string | number> = { ...options.headers };
        if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
        const req = options.pool.request(options.url, { method: options.method, headers });
        const fail = (err: unknown): void => {
          settle(err);
          req.destroy();
        };
        const onAbort = (): void => fail(signal?.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        req.setTimeout(options.timeoutMs, () => fail(new RequestTimeout(options.timeoutMs)));
        req.on("error", fail);
        req.on("response", (res: IncomingMessage) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("error", fail);
          res.on("end", () =>
            settle(undefined, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", envelope: parseEnvelope(text) }),
          );
        });
        req.end(options.body);
      }),
  );
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
