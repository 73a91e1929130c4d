// One row per plain QEMU config key (not drives or NICs, which are keyed by slot): what pvectl
// knows about it. The spec schema, normalization, owned keys, desired and imported values, the
// diff's hotplug decision and the privilege check all read these rows, so adding an option is
// one row (docs/engine.md, "Adding an option"). Rows are facts; test/resources/options-table
// checks them against the generated PVE schema (src/schema) and today's behaviour.

/** How PVE writes the value, and so how both sides are put in one form before comparing. */
export type OptionValue =
  | "integer"
  | "number"
  /** 0/1 */
  | "boolean"
  /** Compared as written (trimmed). */
  | "text"
  /** Read with PVE's schema and printed back (`memory: 2048` is `current=2048`). */
  | "property-string"
  /** URL-encoded, one SSH key per line. */
  | "ssh-keys"
  /**
   * Free text PVE keeps as `#` comment lines: qemu-server reads it back without trailing
   * whitespace (parse_vm_config's `s/\s+$//`), so only that is ignored; leading spaces count.
   */
  | "comment";

/** Guest `hotplug` features that let a running guest take a change at once. */
export type HotplugFeature = "cpu" | "memory" | "usb";

/** When a change to a running guest takes effect, as qemu-server's vmconfig_hotplug_pending decides. */
export type HotplugClass =
  /** At once: qemu-server's fast-plug keys, cgroup settings, cloud-init keys. */
  | "now"
  /** Waits in the pending section for the next reboot. */
  | "reboot"
  /** At once when the guest's `hotplug` has the feature. */
  | { feature: HotplugFeature }
  /** A new balloon target at once; switching the balloon device on or off (`0`) waits. */
  | "balloon-device"
  /** At once, unless memory hotplug is switched on or off by the change. */
  | "memory-hotplug";

/**
 * How a spec value is written and turned into PVE's (each kind is implemented once per layer:
 * spec-schema, spec-normalize and spec-desired, to-spec here):
 * - `pve`: as PVE's schema types the key (integer and number ranges, boolean, enum, string);
 * - `pve-string`: a non-empty string, checked with PVE's schema of the key;
 * - `MiB`: MiB as a number, or a size with a unit (`2G`), at least PVE's minimum;
 * - `default-key`: the value of the default key of PVE's property string, matched against its pattern;
 * - `boot-order`: a list of slots (PVE `boot: order=a;b`);
 * - `agent`: true/false or the guest agent's options;
 * - `ssh-keys`: a list of public keys (one per line in PVE);
 * - `addresses`, `words`: a list of IP addresses, or of words (space-separated in PVE);
 * - `own`: a field with code of its own (name, tags, cloud-init's ipconfig).
 */
export type SpecKind = "pve" | "pve-string" | "MiB" | "default-key" | "boot-order" | "agent" | "ssh-keys" | "addresses" | "words" | "own";

/** A field of the spec's own for the key: on the VM, or inside a section (`cloudInit.user`). */
export interface SpecField {
  field: string;
  section?: "cloudInit";
  kind: SpecKind;
  /** The JSON Schema description editors show. */
  describe?: string;
  /** `default-key` kinds: what a valid value looks like, for the error message. */
  example?: string;
  /** Added to "write it as `cloudInit.sshKeys`" when the PVE key is used instead. */
  note?: string;
  /** The whole hint for keys with a shape of their own (`<key>` stands for the key). */
  hint?: string;
}

/**
 * Where the spec sets the key: a field of its own; only the `extraConfig` escape hatch (the
 * default); refused with a hint (`refused`); or never, because PVE keeps it itself (`pve-internal`).
 */
export type SpecRule = SpecField | { refused: string } | "pve-internal";

export interface QemuOption {
  /** PVE's config key, or for `indexed` keys its stem (`ipconfig` for ipconfig0, ipconfig1 ...). */
  key: string;
  indexed?: true;
  value: OptionValue;
  /** The unit of the number PVE stores (for a property string: of its default key). */
  unit?: "MiB";
  /** PVE's value when the key is absent, in canonical form: "not set" and "set to it" compare equal. */
  default?: string;
  hotplug: HotplugClass;
  /** The privilege qemu-server's `$check_vm_modify_config_perm` asks for writing or deleting the key. */
  privilege: string;
  /** It accepts any one of these instead (cloud-init keys: VM.Config.Cloudinit or VM.Config.Network). */
  anyOf?: readonly string[];
  /** Absent: the key is set through `extraConfig` only. */
  spec?: SpecRule;
  /** `never`: import leaves the key out although a spec may set it (PVE generates it per guest). */
  import?: "never";
}

const CPU = "VM.Config.CPU";
const MEMORY = "VM.Config.Memory";
const HW = "VM.Config.HWType";
const OPTIONS = "VM.Config.Options";
const DISK = "VM.Config.Disk";
const CLOUDINIT_PRIVILEGE = { privilege: "VM.Config.Cloudinit", anyOf: ["VM.Config.Cloudinit", "VM.Config.Network"] } as const;

// Order matters twice: the VM's spec fields appear in the JSON Schema in this order, and
// `import` writes them in this order (plain values first, then lists and objects).
export const QEMU_OPTIONS = [
  // ---- the VM's own fields ----
  { key: "name", value: "text", hotplug: "now", privilege: OPTIONS, spec: { field: "name", kind: "own" } },
  { key: "cores", value: "integer", default: "1", hotplug: "reboot", privilege: CPU, spec: { field: "cores", kind: "pve" } },
  { key: "sockets", value: "integer", default: "1", hotplug: "reboot", privilege: CPU, spec: { field: "sockets", kind: "pve" } },
  {
    key: "cpu",
    value: "text",
    hotplug: "reboot",
    privilege: CPU,
    spec: { field: "cpu", kind: "pve-string", describe: "CPU type or PVE cpu string, e.g. host or x86-64-v2-AES." },
  },
  {
    key: "memory",
    value: "property-string",
    unit: "MiB",
    default: "512",
    hotplug: { feature: "memory" },
    privilege: MEMORY,
    spec: { field: "memory", kind: "MiB", describe: "MiB (2048) or a size with a unit (2G)." },
  },
  {
    key: "balloon",
    value: "integer",
    unit: "MiB",
    hotplug: "balloon-device",
    privilege: MEMORY,
    spec: { field: "balloon", kind: "MiB", describe: "Minimum memory for ballooning; 0 disables the balloon device." },
  },
  {
    key: "machine",
    value: "property-string",
    hotplug: "reboot",
    privilege: HW,
    spec: { field: "machine", kind: "default-key", example: "a machine type like q35 or pc-q35-9.0", describe: "Machine type, e.g. q35." },
  },
  { key: "bios", value: "text", default: "seabios", hotplug: "reboot", privilege: OPTIONS, spec: { field: "bios", kind: "pve" } },
  { key: "ostype", value: "text", default: "other", hotplug: "reboot", privilege: OPTIONS, spec: { field: "ostype", kind: "pve" } },
  { key: "scsihw", value: "text", default: "lsi", hotplug: "reboot", privilege: HW, spec: { field: "scsihw", kind: "pve" } },
  {
    key: "boot",
    value: "text",
    hotplug: "reboot",
    privilege: DISK,
    spec: { field: "boot", kind: "boot-order", describe: "Boot order by slot, e.g. [scsi0, ide2, net0]." },
  },
  {
    key: "agent",
    value: "property-string",
    default: "0",
    hotplug: "reboot",
    privilege: OPTIONS,
    spec: { field: "agent", kind: "agent", describe: "QEMU guest agent: true/false or options." },
  },
  { key: "onboot", value: "boolean", default: "0", hotplug: "now", privilege: OPTIONS, spec: { field: "onboot", kind: "pve" } },
  { key: "tags", value: "text", hotplug: "now", privilege: OPTIONS, spec: { field: "tags", kind: "own" } },
  { key: "description", value: "comment", default: "", hotplug: "now", privilege: OPTIONS, spec: { field: "description", kind: "pve" } },

  // ---- cloud-init, the spec's `cloudInit` section ----
  {
    key: "ciuser",
    value: "text",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: { section: "cloudInit", field: "user", kind: "pve-string" },
  },
  {
    key: "sshkeys",
    value: "ssh-keys",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: {
      section: "cloudInit",
      field: "sshKeys",
      kind: "ssh-keys",
      note: "a list, one key per entry",
      describe: "Public SSH keys, one per entry.",
    },
  },
  {
    key: "ipconfig",
    indexed: true,
    value: "text",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: { section: "cloudInit", field: "ipconfig", kind: "own", hint: "`cloudInit.ipconfig: { <key>: { ip: ..., gw: ... } }`" },
  },
  {
    key: "nameserver",
    value: "text",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: { section: "cloudInit", field: "nameservers", kind: "addresses", note: "a list" },
  },
  {
    key: "searchdomain",
    value: "text",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: { section: "cloudInit", field: "searchDomains", kind: "words", note: "a list" },
  },
  {
    key: "ciupgrade",
    value: "boolean",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: { section: "cloudInit", field: "upgrade", kind: "pve" },
  },
  { key: "citype", value: "text", hotplug: "now", ...CLOUDINIT_PRIVILEGE, spec: { section: "cloudInit", field: "type", kind: "pve" } },
  {
    key: "cipassword",
    value: "text",
    hotplug: "now",
    ...CLOUDINIT_PRIVILEGE,
    spec: {
      refused:
        "nothing: a password in a spec file ends up in git and logs; give cloud-init `sshKeys` instead, or set the password out of band",
    },
  },
  { key: "cicustom", value: "text", hotplug: "now", ...CLOUDINIT_PRIVILEGE },

  // ---- set through extraConfig ----
  { key: "cpulimit", value: "number", default: "0", hotplug: "now", privilege: CPU },
  { key: "cpuunits", value: "integer", hotplug: "now", privilege: CPU },
  { key: "vcpus", value: "integer", hotplug: { feature: "cpu" }, privilege: CPU },
  { key: "numa", value: "boolean", default: "0", hotplug: "reboot", privilege: CPU },
  { key: "numa", indexed: true, value: "text", hotplug: "reboot", privilege: CPU },
  { key: "smp", value: "integer", hotplug: "reboot", privilege: CPU },
  { key: "affinity", value: "text", hotplug: "reboot", privilege: CPU },
  { key: "shares", value: "integer", hotplug: "now", privilege: MEMORY },
  { key: "allow-ksm", value: "boolean", hotplug: "reboot", privilege: MEMORY },
  { key: "acpi", value: "boolean", default: "1", hotplug: "reboot", privilege: HW },
  { key: "hotplug", value: "text", default: "network,disk,usb", hotplug: "memory-hotplug", privilege: HW },
  { key: "kvm", value: "boolean", default: "1", hotplug: "reboot", privilege: HW },
  { key: "tablet", value: "boolean", default: "1", hotplug: { feature: "usb" }, privilege: HW },
  { key: "vga", value: "property-string", default: "std", hotplug: "reboot", privilege: HW },
  { key: "watchdog", value: "text", hotplug: "reboot", privilege: HW },
  { key: "audio0", value: "text", hotplug: "reboot", privilege: HW },
  { key: "rng0", value: "text", hotplug: "reboot", privilege: HW },
  // A per-guest UUID PVE generates: settable, but an import copying it would clone the identity.
  { key: "smbios1", value: "text", hotplug: "reboot", privilege: HW, import: "never" },
  { key: "autostart", value: "boolean", default: "0", hotplug: "reboot", privilege: OPTIONS },
  { key: "keyboard", value: "text", hotplug: "reboot", privilege: OPTIONS },
  { key: "localtime", value: "boolean", hotplug: "reboot", privilege: OPTIONS },
  { key: "migrate_downtime", value: "number", hotplug: "now", privilege: OPTIONS },
  { key: "migrate_speed", value: "integer", hotplug: "now", privilege: OPTIONS },
  { key: "protection", value: "boolean", default: "0", hotplug: "now", privilege: OPTIONS },
  { key: "reboot", value: "boolean", default: "1", hotplug: "reboot", privilege: OPTIONS },
  { key: "startdate", value: "text", hotplug: "reboot", privilege: OPTIONS },
  { key: "startup", value: "text", hotplug: "now", privilege: OPTIONS },
  { key: "tdf", value: "boolean", default: "0", hotplug: "reboot", privilege: OPTIONS },
  // No rule of their own in the privilege check (qemu-server lets only root set a USB host device).
  { key: "hookscript", value: "text", hotplug: "now", privilege: OPTIONS },
  { key: "usb", indexed: true, value: "text", hotplug: { feature: "usb" }, privilege: OPTIONS },
  { key: "vmstatestorage", value: "text", hotplug: "now", privilege: DISK },
  {
    key: "bootdisk",
    value: "text",
    hotplug: "reboot",
    privilege: DISK,
    spec: { refused: "the VM's `boot: [scsi0, ...]` (bootdisk is deprecated in PVE)" },
  },

  // ---- PVE's own bookkeeping: no spec sets it, import leaves it out ----
  { key: "template", value: "boolean", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "lock", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "digest", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "vmgenid", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "meta", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  // Snapshot bookkeeping that appears in config files.
  { key: "parent", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "snaptime", value: "integer", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "snapstate", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "vmstate", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "runningmachine", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
  { key: "runningcpu", value: "text", hotplug: "reboot", privilege: OPTIONS, spec: "pve-internal" },
] as const satisfies readonly QemuOption[];

/** The literal rows, for types derived from them (the spec's fields). */
export type QemuOptionRow = (typeof QEMU_OPTIONS)[number];
/** The rows as plain `QemuOption`s, for code that reads any row. */
export const QEMU_OPTION_ROWS: readonly QemuOption[] = QEMU_OPTIONS;

const byKey = new Map<string, QemuOption>();
const byStem = new Map<string, QemuOption>();
for (const row of QEMU_OPTION_ROWS) (row.indexed ? byStem : byKey).set(row.key, row);

/** The row of config key `key` (`ipconfig3` finds the `ipconfig` row); undefined: nothing known. */
export function qemuOption(key: string): QemuOption | undefined {
  const exact = byKey.get(key);
  if (exact) return exact;
  const stem = /^(.*\D)\d+$/.exec(key)?.[1];
  return stem === undefined ? undefined : byStem.get(stem);
}

/** The spec field of a row, when the spec has one for it. */
export function specFieldOf(row: QemuOption): SpecField | undefined {
  return typeof row.spec === "object" && "field" in row.spec ? row.spec : undefined;
}

/** Rows with a spec field on the VM (`section` undefined) or in a section, in table order. */
type TableSpecRow = { readonly row: QemuOption; readonly spec: SpecField };

// Built once per section: the table is constant, and a spec of thousands of VMs asked for the
// rows of every VM (walking the whole table each time).
const rowsBySection = new Map<SpecField["section"], readonly TableSpecRow[]>();
const writingOrderBySection = new Map<SpecField["section"], readonly TableSpecRow[]>();

export function specFieldRows(section: SpecField["section"]): readonly TableSpecRow[] {
  const known = rowsBySection.get(section);
  if (known) return known;
  const out: TableSpecRow[] = [];
  for (const row of QEMU_OPTION_ROWS) {
    const spec = specFieldOf(row);
    if (spec && spec.section === section) out.push({ row, spec });
  }
  rowsBySection.set(section, out);
  return out;
}

/** Kinds whose spec value is a list or an object. */
const NESTED_KINDS: ReadonlySet<SpecKind> = new Set(["boot-order", "agent", "ssh-keys", "addresses", "words"]);

/**
 * The same rows in the order pvectl writes them out (import, desired values): on the VM plain
 * values first, then lists and objects, as a person writes a VM; a section keeps the table's order.
 */
export function specFieldRowsInWritingOrder(section: SpecField["section"]): readonly TableSpecRow[] {
  const known = writingOrderBySection.get(section);
  if (known) return known;
  const rows = specFieldRows(section);
  const ordered =
    section !== undefined
      ? rows
      : [...rows.filter((r) => !NESTED_KINDS.has(r.spec.kind)), ...rows.filter((r) => NESTED_KINDS.has(r.spec.kind))];
  writingOrderBySection.set(section, ordered);
  return ordered;
}

/** How `import` writes the key: as its spec field, under extraConfig, or not at all. */
export function importRule(row: QemuOption): "field" | "extraConfig" | "never" {
  if (row.import === "never" || (row.spec !== undefined && !specFieldOf(row))) return "never";
  return specFieldOf(row) ? "field" : "extraConfig";
}

/** The privilege PVE checks for writing or deleting `key`; undefined when the table has no row for it. */
export function optionPrivilege(key: string): string | undefined {
  return qemuOption(key)?.privilege;
}

/** The privileges PVE accepts instead of each other for `key` (cloud-init keys), if any. */
export function optionPrivilegeAnyOf(key: string): readonly string[] | undefined {
  return qemuOption(key)?.anyOf;
}

type SectionOf<Spec> = Spec extends { section: infer S } ? S : undefined;
type RowIn<Row, Section> = Row extends { spec: infer Spec extends { kind: SpecKind } }
  ? Spec["kind"] extends "own"
    ? never
    : SectionOf<Spec> extends Section
      ? Row
      : never
  : never;

/** The literal rows with a spec field on the VM (`Section` undefined) or in a section, except kind `own`. */
export type SpecFieldRow<Section extends SpecField["section"]> = RowIn<QemuOptionRow, Section>;
/** Their field names (`cores`, `memory` ...). */
export type SpecFieldName<Section extends SpecField["section"]> = SpecFieldRow<Section>["spec"]["field"];
