// Writing responses the way pve-api-daemon does: the {"data": ...} envelope, PVE's headers,
// and errors whose message doubles as the HTTP reason phrase.
import type { ServerResponse } from "node:http";
import { jsonBody } from "./json-body.js";

/** What the pipeline hands to the transport. `body` undefined means "no body" (PVE's 401s). */
export interface ApiResponse {
  status: number;
  /** Reason phrase source (first line is used); also the `message` of an error body. */
  message?: string;
  body?: Record<string, unknown>;
}

export function ok(data: unknown, extra?: Record<string, unknown>): ApiResponse {
  return { status: 200, message: "OK", body: { data: data === undefined ? null : data, ...extra } };
}

/** An error rendered like PVE >= 5.2 of libpve-http-server: data null, message with trailing newline, optional errors. */
export function errorResponse(status: number, message: string, errors?: Record<string, string>): ApiResponse {
  const text = message.endsWith("\n") ? message : `${message}\n`;
  const body: Record<string, unknown> = { data: null, message: text };
  if (errors && Object.keys(errors).length > 0) body.errors = errors;
  return { status, message, body };
}

/** 401s come from PVE's auth handler before formatting: reason phrase only, no body. */
export function unauthorized(message: string): ApiResponse {
  return { status: 401, message };
}

/** The reason phrase: first line of the message; characters a status line cannot carry are replaced. */
export function reasonPhrase(message: string | undefined, status: number): string {
  const first = (message ?? "").split("\n")[0]?.trim() ?? "";
  const clean = first.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
  if (clean) return clean;
  return status === 200 ? "OK" : "Error";
}

export function writeResponse(res: ServerResponse, response: ApiResponse): void {
  const chunks = response.body === undefined ? [] : jsonBody(response.body);
  const headers: Record<string, string | number> = {
    Server: "pve-api-daemon/3.0",
    "Cache-Control": "max-age=0",
    Pragma: "no-cache",
    Expires: new Date().toUTCString(),
    "Content-Length": chunks.reduce((sum, chunk) => sum + chunk.length, 0),
  };
  if (response.body !== undefined) headers["Content-Type"] = "application/json;charset=UTF-8";
  res.writeHead(response.status, reasonPhrase(response.message, response.status), headers);
  for (const chunk of chunks.slice(0, -1)) res.write(chunk);
  res.end(chunks.at(-1));
}
