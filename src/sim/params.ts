// Reading validated handler parameters. Validation already typed them (numbers for integers,
// 0|1 for booleans); these helpers also accept the raw wire forms so a handler behaves the
// same whichever way a value arrived.
import { splitList } from "../pve/index.js";

export type HandlerParams = Record<string, string | number | undefined>;

export function str(params: HandlerParams, key: string): string | undefined {
  const v = params[key];
  return v === undefined ? undefined : String(v);
}

export function int(params: HandlerParams, key: string): number | undefined {
  const v = params[key];
  if (v === undefined || v === "") return undefined;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

/** 0|1 for booleans given as 0/1, "0"/"1" or true/false; undefined when absent. */
export function flag(params: HandlerParams, key: string): 0 | 1 | undefined {
  const v = params[key] as unknown;
  if (v === undefined) return undefined;
  return v === 1 || v === "1" || v === true || v === "true" ? 1 : 0;
}

/** A comma/semicolon/space separated list (PVE's `-list` formats). */
export function list(params: HandlerParams, key: string): string[] {
  const v = params[key];
  if (v === undefined) return [];
  return splitList(String(v));
}
