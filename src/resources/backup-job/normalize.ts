// One form for every backup job value, whichever way PVE or the spec spells it: booleans 0/1,
// numbers as decimal text, vmid lists sorted, mail lists comma-joined, and property strings
// (prune-backups, fleecing, performance: PVE answers them as objects, takes them as text)
// printed with their keys sorted. Equal meaning, equal string: the diff compares strings.

import { parsePropertyString, splitList } from "../../pve/index.js";
import { getEndpoint, getFormat } from "../../schema/index.js";
import type { ParamSchema } from "../../schema/types.js";

/** The parameters of POST /cluster/backup (PVE's job options), from the generated schema. */
export function jobParamSchemas(): Record<string, ParamSchema> {
  return getEndpoint("POST", "/cluster/backup")?.params ?? {};
}

/** Keys that hold a property string, and their format. */
const PROPERTY_STRINGS = new Map([
  ["prune-backups", "prune-backups"],
  ["fleecing", "backup-fleecing"],
  ["performance", "backup-performance"],
]);
const VMID_LISTS = new Set(["vmid", "exclude"]);
const NAME_LISTS = new Set(["mailto"]);

function printObject(value: Record<string, unknown>): string {
  return Object.keys(value)
    .filter((k) => value[k] !== undefined && value[k] !== null)
    .sort()
    .map((k) => `${k}=${scalar(value[k])}`)
    .join(",");
}

function scalar(value: unknown): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  return String(value);
}

/** A property string's value in sorted `k=v` form (an object as PVE answers, or text). */
function propertyString(key: string, value: unknown): string {
  if (value !== null && typeof value === "object") return printObject(value as Record<string, unknown>);
  const text = String(value);
  const format = getFormat(PROPERTY_STRINGS.get(key) ?? key);
  try {
    if (format === undefined) throw new Error("no format");
    const parsed = parsePropertyString(text, format, key);
    return printObject(parsed as Record<string, unknown>);
  } catch {
    // Not parseable by the format table: compare its parts sorted.
    return text
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "")
      .sort()
      .join(",");
  }
}

/** `value` of job key `key` in the form the diff compares. */
export function normalizeJobValue(key: string, value: unknown): string {
  if (PROPERTY_STRINGS.has(key)) return propertyString(key, value);
  if (VMID_LISTS.has(key)) {
    const ids = Array.isArray(value) ? value.map(String) : splitList(String(value));
    return [...new Set(ids.map((v) => Number(v)))].sort((a, b) => a - b).join(",");
  }
  if (NAME_LISTS.has(key)) return (Array.isArray(value) ? value.map(String) : splitList(String(value))).join(",");
  const schema = jobParamSchemas()[key];
  if (schema?.type === "boolean")
    return value === true || value === 1 || value === "1" || value === "true" || value === "on" || value === "yes" ? "1" : "0";
  return scalar(value);
}

/** PVE's default of a job key (normalized), or undefined when it has none. */
export function jobDefault(key: string): string | undefined {
  const schema = jobParamSchemas()[key];
  if (schema?.default === undefined) return undefined;
  return normalizeJobValue(key, schema.default);
}
