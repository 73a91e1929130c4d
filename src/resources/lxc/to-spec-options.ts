// A container's plain config keys back into the spec's fields, for `pvectl show` and `pvectl
// import`: one reader per spec kind of the options table (options-table.ts), so a new row of
// an existing kind is imported as it is. Values equal to PVE's default are left out (not set
// and set to the default compare equal), except `unprivileged`: pvectl's default differs from
// PVE's, so a spec always says which one the container is.
import { guestSubSchema, parsePropertyString } from "../../pve/index.js";
import type { SpecObject, SpecValue } from "../kind.js";
import { LXC_FEATURES, type LxcOption, type LxcSpecKind, lxcImportRule, lxcOption, lxcSpecFieldRows } from "./options-table.js";

export function num(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

export function bool(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "1";
}

/** The object without its undefined entries. */
export function drop<T extends SpecObject>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/** `keyctl=1,mount=nfs;cifs,nesting=1` -> `{ nesting: true, keyctl: true, mount: [nfs, cifs] }` (the spec's order). */
function featuresValue(text: string): SpecValue {
  const schema = guestSubSchema("lxc", "features");
  if (!schema) return undefined;
  let parts: Record<string, string | number | boolean>;
  try {
    parts = parsePropertyString(text, schema, "features");
  } catch {
    return undefined;
  }
  const out: SpecObject = {};
  for (const name of LXC_FEATURES) {
    const value = parts[name];
    if (value === undefined) continue;
    out[name] = name === "mount" ? String(value).split(";").filter(Boolean) : value === true || value === 1 || value === "1";
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const READERS: Record<Exclude<LxcSpecKind, "own">, (text: string, row: LxcOption) => SpecValue> = {
  pve: (text, row) => (row.value === "boolean" ? bool(text) : row.value === "integer" || row.value === "number" ? num(text) : text),
  MiB: (text) => num(text),
  features: featuresValue,
  addresses: (text) => text.split(/\s+/).filter(Boolean),
  words: (text) => text.split(/\s+/).filter(Boolean),
};

/** The table's fields (not `own` ones: hostname and tags have code of their own), from live options. */
export function ctSpecFields(options: Record<string, string>): SpecObject {
  const out: SpecObject = {};
  for (const { row, spec } of lxcSpecFieldRows()) {
    if (spec.kind === "own") continue;
    const text = options[row.key] ?? (row.key === "unprivileged" ? row.default : undefined);
    if (text === undefined || (text === row.default && row.key !== "unprivileged")) continue;
    const value = READERS[spec.kind](text, row);
    if (value !== undefined) out[spec.field] = value;
  }
  return out;
}

/** Live options import writes under `extraConfig`: rows without a field, and keys without a row, when not PVE's default. */
export function ctExtraConfig(options: Record<string, string>): SpecObject {
  const extra: SpecObject = {};
  for (const [key, value] of Object.entries(options)) {
    const row = lxcOption(key);
    if (row ? lxcImportRule(row) !== "extraConfig" || value === row.default : /^(rootfs|mp\d+|net\d+|unused\d+)$/.test(key)) continue;
    extra[key] = /^-?\d+(\.\d+)?$/.test(value) && !/^0\d/.test(value) ? Number(value) : value;
  }
  return extra;
}
