// Plain (non-disk, non-NIC) config keys: canonical form and PVE's defaults, so that
// "not set" and "set to the default" compare equal, and `memory: 2048` equals `current=2048`.
import { canonical, propertyStringInPveOrder } from "../formats.js";
import { QEMU_OPTION_ROWS, qemuOption } from "./options-table.js";

/** PVE's value when a key is absent from the config (qemu-server schema defaults), by key. */
export const PVE_DEFAULTS: Record<string, string> = Object.fromEntries(
  QEMU_OPTION_ROWS.flatMap((row) => (row.default !== undefined ? [[row.key, row.default]] : [])),
);

export function normalizeOption(key: string, value: string | number | boolean): string {
  const kind = qemuOption(key)?.value;
  // A description of "1.50" is text, not a number; a YAML `|` block's final newline is not
  // kept by PVE, so "notes\n" and "notes" are the same description.
  if (kind === "comment") return String(value).replace(/\s+$/, "");
  const text = canonical(value);
  // PVE stores SSH keys URL-encoded; compare the keys themselves.
  if (kind === "ssh-keys") return `${safeDecode(text).trim()}\n`;
  return typeof value === "string" ? (propertyStringInPveOrder(key, text, "qemu") ?? text) : text;
}

/** The effective value of `key`: as set, or PVE's default, or undefined (not set, no default). */
export function effectiveOption(options: Record<string, string>, key: string): string | undefined {
  return options[key] ?? PVE_DEFAULTS[key];
}

/** The value before and after a change (undefined: not set, PVE's default applies). */
export interface ValueChange {
  before?: string | undefined;
  after?: string | undefined;
}

/** The balloon device exists unless `balloon: 0`; adding or removing the device needs a reboot. */
function balloonDevice(value: string | undefined): boolean {
  return value === undefined || value !== "0";
}

/**
 * Whether changing `key` on a running guest takes effect now (true) or after a reboot, by the
 * key's hotplug class (options-table.ts); keys without a row wait for a reboot.
 */
export function appliesLive(key: string, hotplug: string[], change: ValueChange = {}): boolean {
  const row = qemuOption(key);
  const rule = row?.hotplug ?? "reboot";
  if (typeof rule === "object") return hotplug.includes(rule.feature);
  switch (rule) {
    case "now":
      return true;
    case "reboot":
      return false;
    case "balloon-device":
      return balloonDevice(change.before) === balloonDevice(change.after);
    case "memory-hotplug":
      return ![change.before ?? row?.default, change.after ?? row?.default].some((v) => v?.includes("memory"));
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The value to send for `key`: SSH keys URL-encoded as PVE wants them (spaces and `+` too). */
export function writeValue(key: string, value: string): string {
  if (qemuOption(key)?.value !== "ssh-keys") return value;
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A value as a plan shows it: SSH keys one per `|`, without the trailing newline. */
export function displayValue(key: string, value: string): string {
  if (qemuOption(key)?.value === "ssh-keys") return value.trim().split("\n").join(" | ");
  return value;
}
