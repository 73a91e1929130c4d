// Plain container config keys (not mount points or NICs): canonical form and PVE's defaults,
// read from options-table.ts, so that "not set" and "set to the default" compare equal, and
// whether a change applies to a running container at once or waits in `[pve:pending]`.
import { canonical, propertyStringInPveOrder } from "../formats.js";
import { LXC_OPTION_ROWS, lxcOption } from "./options-table.js";

/** PVE's value when a key is absent from the config (pve-container schema defaults), by key. */
export const CT_DEFAULTS: Record<string, string> = Object.fromEntries(
  LXC_OPTION_ROWS.flatMap((row) => (row.default !== undefined && !row.indexed ? [[row.key, row.default]] : [])),
);

/** A config value in canonical form: numbers and booleans as canonical text, `features` in PVE's order. */
export function normalizeCtOption(key: string, value: string | number | boolean): string {
  const kind = lxcOption(key)?.value;
  // PVE keeps a description as `#` lines without the final newline a YAML `|` block has.
  if (kind === "comment") return String(value).replace(/\s+$/, "");
  const text = canonical(value);
  return typeof value === "string" ? (propertyStringInPveOrder(key, text, "lxc") ?? text) : text;
}

/** The effective value of `key`: as set, or PVE's default, or undefined (not set, no default). */
export function effectiveCtOption(options: Record<string, string>, key: string): string | undefined {
  return options[key] ?? CT_DEFAULTS[key];
}

/**
 * Whether writing `key` on a running container takes effect at once (pve-container's
 * fast-plug keys and cgroup limits) or waits for the next start; keys without a row wait.
 */
export function ctAppliesLive(key: string): boolean {
  return lxcOption(key)?.live ?? false;
}

/** Set at creation only: a change on an existing container is refused by PVE. */
export function isCreateOnly(key: string): boolean {
  return lxcOption(key)?.createOnly === true;
}
