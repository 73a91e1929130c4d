// Plain (non-disk, non-NIC) config keys: canonical form and PVE's defaults, so that
// "not set" and "set to the default" compare equal, and `memory: 2048` equals `current=2048`.
import { guestSubSchema, printPropertyString } from "../../pve/index.js";
import { canonical, configParts } from "../formats.js";

/** PVE's value when a key is absent from the config (qemu-server schema defaults). */
export const PVE_DEFAULTS: Record<string, string> = {
  acpi: "1",
  agent: "0",
  autostart: "0",
  bios: "seabios",
  cores: "1",
  cpulimit: "0",
  description: "",
  hotplug: "network,disk,usb",
  kvm: "1",
  memory: "512",
  numa: "0",
  onboot: "0",
  ostype: "other",
  protection: "0",
  reboot: "1",
  scsihw: "lsi",
  sockets: "1",
  tablet: "1",
  tdf: "0",
  vga: "std",
};

/** Keys whose value is a property string with a leading default key (`memory: 2048` is `current=2048`). */
const PROPERTY_STRING_KEYS = new Set(["memory", "agent", "vga", "machine"]);

export function normalizeOption(key: string, value: string | number | boolean): string {
  const text = canonical(value);
  // PVE stores SSH keys URL-encoded; compare the keys themselves.
  if (key === "sshkeys") return `${safeDecode(text).trim()}\n`;
  if (!PROPERTY_STRING_KEYS.has(key) || typeof value !== "string") return text;
  // Read with PVE's schema, values made canonical, printed back in PVE's order and spelling.
  const parts = configParts(key, text);
  const schema = guestSubSchema("qemu", key);
  if (parts === undefined || schema === undefined) return text;
  try {
    return printPropertyString(parts, schema, { key });
  } catch {
    return text;
  }
}

/** The effective value of `key`: as set, or PVE's default, or undefined (not set, no default). */
export function effectiveOption(options: Record<string, string>, key: string): string | undefined {
  return options[key] ?? PVE_DEFAULTS[key];
}

/**
 * Keys PVE applies to a running guest at once ("fast plug"); everything else waits in the
 * pending section for the next reboot unless a hotplug feature covers it.
 */
const ALWAYS_LIVE = new Set([
  "name",
  "description",
  "onboot",
  "protection",
  "startup",
  "hookscript",
  "shares",
  "migrate_downtime",
  "migrate_speed",
  "vmstatestorage",
  "tags",
  "ciuser",
  "cipassword",
  "citype",
  "ciupgrade",
  "cicustom",
  "sshkeys",
  "nameserver",
  "searchdomain",
]);

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
 * Whether changing `key` on a running guest takes effect now (true) or after a reboot, as
 * qemu-server's vmconfig_hotplug_pending decides: fast-plug keys always; CPU weight and limit
 * through the cgroup always; a new balloon target always (switching the device on or off
 * not); `vcpus`, `memory`, `tablet`/`usbN` with the `cpu`, `memory` and `usb` hotplug features;
 * `hotplug` itself unless memory hotplug is involved before or after.
 */
export function appliesLive(key: string, hotplug: string[], change: ValueChange = {}): boolean {
  if (ALWAYS_LIVE.has(key) || /^ipconfig\d+$/.test(key)) return true;
  if (key === "cpuunits" || key === "cpulimit") return true;
  if (key === "balloon") return balloonDevice(change.before) === balloonDevice(change.after);
  if (key === "hotplug") return ![change.before ?? PVE_DEFAULTS.hotplug, change.after ?? PVE_DEFAULTS.hotplug].some((v) => v?.includes("memory"));
  if (key === "memory") return hotplug.includes("memory");
  if (key === "vcpus") return hotplug.includes("cpu");
  // USB devices hot-plug on machine versions >= 7.1, what every guest started on PVE 9 runs.
  if (key === "tablet" || /^usb\d+$/.test(key)) return hotplug.includes("usb");
  return false;
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
  if (key !== "sshkeys") return value;
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A value as a plan shows it: SSH keys one per `|`, without the trailing newline. */
export function displayValue(key: string, value: string): string {
  if (key === "sshkeys") return value.trim().split("\n").join(" | ");
  return value;
}
