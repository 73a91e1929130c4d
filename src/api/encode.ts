// PVE's wire format for parameters: GET/DELETE in the query string, POST/PUT as a form body;
// booleans as 1/0 (PVE rejects "true"), arrays as repeated keys, absent values left out.
import { PveError } from "./errors.js";

export type ParamValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

function scalar(key: string, value: unknown): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new PveError({ kind: "config", message: `parameter '${key}' is ${value}, not a finite number` });
    }
    return String(value);
  }
  if (typeof value === "string") return value;
  throw new PveError({
    kind: "config",
    message: `parameter '${key}' is a ${typeof value}; PVE takes strings, numbers, booleans or lists of them (write property strings such as net0 as 'virtio,bridge=vmbr0')`,
  });
}

export function encodeParams(params: Record<string, unknown> | undefined): string {
  if (!params) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, scalar(key, item));
    } else {
      search.append(key, scalar(key, value));
    }
  }
  return search.toString();
}
