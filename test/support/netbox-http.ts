// Small helpers for the NetBox tests: raw HTTP calls against the simulator.
import type { NetboxSimulator } from "../../src/netbox/sim/index.js";

export interface RawReply {
  status: number;
  body: unknown;
  headers: Headers;
}

export async function call(
  nb: NetboxSimulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RawReply> {
  const res = await fetch(nb.url + path, {
    method,
    headers: { Authorization: `Token ${nb.token}`, "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
}

/** Narrow an unknown JSON value to an object for property access in assertions. */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

export function results(value: unknown): Record<string, unknown>[] {
  const r = obj(value).results;
  if (!Array.isArray(r)) throw new Error("no results");
  return r as Record<string, unknown>[];
}
