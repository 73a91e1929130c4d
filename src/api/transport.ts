// One HTTP exchange with the API, nothing more: no auth decisions, no retries. Returns the
// status, PVE's reason phrase (older PVE puts its error message only there) and the parsed
// JSON envelope; throws the low-level error when no response arrived.
import { type Agent, request } from "undici";

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
  dispatcher: Agent;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export async function send(options: SendOptions): Promise<RawResponse> {
  const controller = new AbortController();
  const timeout = new RequestTimeout(options.timeoutMs);
  const timer = setTimeout(() => controller.abort(timeout), options.timeoutMs);
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  try {
    const response = await request(options.url, {
      dispatcher: options.dispatcher,
      method: options.method,
      headers: options.headers,
      ...(options.body !== undefined ? { body: options.body } : {}),
      signal: controller.signal,
    });
    const text = await response.body.text();
    return { status: response.statusCode, statusText: response.statusText ?? "", envelope: parseEnvelope(text) };
  } catch (err) {
    if (controller.signal.aborted && controller.signal.reason === timeout) throw timeout;
    throw err;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
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
