// Reading an HTTP request the way pve-http-server does: GET/DELETE take their parameters
// from the query string only; POST/PUT read the body (JSON when the content type says so,
// form-encoded otherwise) and the query string is merged over it. Repeated keys become arrays
// and the `_dc` cache buster is dropped.
import type { IncomingMessage } from "node:http";
import { PveApiError } from "../contract.js";

/** Parameter values as they arrived on the wire (before schema validation). */
export type RawValue = string | number | boolean | null | RawValue[] | { [key: string]: RawValue };
export type RawParams = Record<string, RawValue>;

const MAX_BODY_BYTES = 1024 * 1024;

export function addRepeated(target: RawParams, key: string, value: string): void {
  const existing = target[key];
  if (existing === undefined) target[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else target[key] = [existing, value];
}

export function parseQuery(search: string): RawParams {
  const out: RawParams = {};
  for (const [key, value] of new URLSearchParams(search)) addRepeated(out, key, value);
  return out;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw new PveApiError(413, "Request Entity Too Large");
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Decodes a POST/PUT body; `contentType` decides between JSON and form encoding. */
export function parseBody(body: Buffer, contentType: string | undefined): RawParams {
  if (body.length === 0) return {};
  const text = body.toString("utf8");
  if ((contentType ?? "").toLowerCase().startsWith("application/json")) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(text);
    } catch {
      throw new PveApiError(400, "malformed JSON string in request body");
    }
    if (decoded === null || typeof decoded !== "object" || Array.isArray(decoded)) {
      throw new PveApiError(400, "request body is not a JSON object");
    }
    return decoded as RawParams;
  }
  return parseQuery(text);
}

/** Query parameters merged over body parameters (PVE's extract_params), without `_dc`. */
export function mergeParams(body: RawParams, query: RawParams): RawParams {
  const merged: RawParams = { ...body, ...query };
  delete merged._dc;
  return merged;
}
