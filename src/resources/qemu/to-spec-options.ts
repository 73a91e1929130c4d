// Plain config keys back into the spec's fields, for `pvectl show` and `pvectl import`: one
// reader per spec kind (options-table.ts), so a new row of an existing kind is imported as is.
import { defaultKeyOf, guestSubSchema } from "../../pve/index.js";
import { configParts } from "../formats.js";
import { importRule, type QemuOption, qemuOption, type SpecField, type SpecKind, specFieldRowsInWritingOrder } from "./options-table.js";

export type RawValue = string | number | boolean | string[] | RawObject | undefined;
export interface RawObject {
  [key: string]: RawValue;
}

export function num(value: string | undefined): number | undefined {
  if (value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

export function bool(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "1";
}

export function drop<T extends RawObject>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}

/** The value of the default key of a property-string value (`current=2048` -> `2048`). */
function defaultKeyValue(key: string, text: string): string | undefined {
  const schema = guestSubSchema("qemu", key);
  const name = schema ? defaultKeyOf(schema) : undefined;
  return name === undefined ? undefined : configParts(key, text, "qemu")?.[name];
}

function agentValue(text: string): RawValue {
  const agent = configParts("agent", text, "qemu") ?? {};
  const rest = drop({
    fstrimClonedDisks: bool(agent.fstrim_cloned_disks),
    // PVE's schema reads the older spellings (guest-fsfreeze, freeze-fs-on-backup) as `freeze-fs`.
    freezeFs: bool(agent["freeze-fs"]),
    type: agent.type,
  });
  return Object.keys(rest).length === 0 ? agent.enabled === "1" : { enabled: agent.enabled === "1", ...rest };
}

/** cloud-init's `ipconfigN` keys as the spec writes them (`{ ipconfig0: { ip: dhcp } }`). */
function ipconfigs(options: Record<string, string>): RawValue {
  const ipconfig: RawObject = {};
  for (const [key, value] of Object.entries(options)) {
    if (qemuOption(key)?.key !== "ipconfig") continue;
    const parts = configParts(key, value, "qemu") ?? {};
    ipconfig[key] = drop({ ip: parts.ip, gw: parts.gw, ip6: parts.ip6, gw6: parts.gw6 });
  }
  return Object.keys(ipconfig).length ? ipconfig : undefined;
}

type Reader = (text: string, row: QemuOption) => RawValue;

/** Fields of kind `own` that import writes here (name and tags are the VM's own code). */
const OWN_READERS: Record<string, (options: Record<string, string>) => RawValue> = { ipconfig: ipconfigs };

const READERS: Record<Exclude<SpecKind, "own">, Reader> = {
  pve: (text, row) => (row.value === "boolean" ? bool(text) : row.value === "integer" || row.value === "number" ? num(text) : text),
  "pve-string": (text) => text,
  MiB: (text, row) => num(row.value === "property-string" ? defaultKeyValue(row.key, text) : text),
  "default-key": (text) => text,
  "boot-order": (text) => {
    const order = configParts("boot", text, "qemu")?.order;
    return order ? order.split(";") : undefined;
  },
  agent: agentValue,
  "ssh-keys": (text) => text.split("\n").filter((k) => k.trim() !== ""),
  addresses: (text) => text.split(/\s+/),
  words: (text) => text.split(/\s+/),
};

function fieldValue(row: QemuOption, spec: SpecField, options: Record<string, string>): RawValue {
  if (spec.kind === "own") return OWN_READERS[spec.field]?.(options);
  const text = options[row.key];
  return text === undefined ? undefined : READERS[spec.kind](text, row);
}

/** The spec fields of the VM (`section` undefined) or of a section, read from live options (name and tags have code of their own). */
export function specFields(section: SpecField["section"], options: Record<string, string>): RawObject {
  const out: RawObject = {};
  for (const { row, spec } of specFieldRowsInWritingOrder(section)) {
    const value = fieldValue(row, spec, options);
    if (value !== undefined) out[spec.field] = value;
  }
  return out;
}

/** How import treats config key `key`; keys without a row go under extraConfig. */
export function importRuleOf(key: string): "field" | "extraConfig" | "never" {
  const row = qemuOption(key);
  return row ? importRule(row) : "extraConfig";
}
