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

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export async function send(options: SendOptions): Promise<RawResponse> {
  // undici's own header/body timeouts bound the wait without the cost of an AbortController
  // and timer per request; a caller's signal (task waits) is passed through when given.
  try {
    const response = await request(options.url, {
      dispatcher: options.dispatcher,
      method: options.method,
      headers: options.headers,
      ...(options.body !== undefined ? { body: options.body } : {}),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = await response.body.text();
    return { status: response.statusCode, statusText: response.statusText ?? "", envelope: parseEnvelope(text) };
  } catch (err) {
    if (TIMEOUT_CODES.has((err as { code?: string }).code ?? "")) throw new RequestTimeout(options.timeoutMs);
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
