// Helpers for the values of guest config keys: drives and mount points, NICs, boot order,
// cloud-init ipconfig, startup order, agent. All typed values follow property-string.ts
// (booleans true/false, numbers as numbers, `size` in bytes).
import { isDiskKey } from "./config-keys.js";
import { PveFormatError } from "./errors.js";
import { type GuestKind, guestSubSchema } from "./guest-schema.js";
import { type ParseOptions, parsePropertyString, printPropertyString, type PropertyValue, type PropertyValues } from "./property-string.js";
import { GIB } from "./size.js";
import { normaliseTags, printTags, splitList } from "./tags.js";

export type { GuestKind } from "./guest-schema.js";

// Which keys hold a volume or a NIC lives apart (config-keys.ts), so that the inventory can ask
// without loading the schema this file needs.
export { isDiskKey, isNetKey, isUnusedKey } from "./config-keys.js";

function subSchemaFor(kind: GuestKind, key: string) {
  const schema = guestSubSchema(kind, key);
  if (!schema) {
    throw new PveFormatError(
      `${kind} config key`,
      key,
      "not a property-string option",
      "Use a disk key such as scsi0, virtio1, rootfs or mp0.",
    );
  }
  return schema;
}

/** Parses a drive (`local-lvm:vm-100-disk-0,discard=on,size=32G`) or mount point value. The volume is under `file` (qemu) or `volume` (lxc). */
export function parseDrive(key: string, value: string, kind: GuestKind = "qemu", options: ParseOptions = {}): PropertyValues {
  if (!isDiskKey(key, kind)) {
    throw new PveFormatError(`${kind} disk key`, key, "not a disk key", "Use a disk key such as scsi0, virtio1, efidisk0, rootfs or mp0.");
  }
  return parsePropertyString(value, subSchemaFor(kind, key), key, options);
}

/** Prints a drive as PVE writes it (volume first, then the other keys sorted, size as 32G). */
export function printDrive(key: string, values: Record<string, PropertyValue | undefined>, kind: GuestKind = "qemu"): string {
  return printPropertyString(values, subSchemaFor(kind, key), { key });
}

/**
 * The volume of a drive or mount point value without needing its schema: the default
 * key's value, or the value of `file=` / `volume=`.
 */
export function volumeOf(driveValue: string): string | undefined {
  for (const part of driveValue.split(",")) {
    if (/^\s*$/.test(part)) continue;
    if (!part.includes("=")) return part;
    const m = /^(file|volume)=(.+)$/.exec(part);
    if (m) return m[2];
  }
  return undefined;
}

/** The storage of a volume id (`local-lvm:vm-100-disk-0` -> `local-lvm`); undefined for paths and `none`/`cdrom`. */
export function storageOfVolume(volume: string): string | undefined {
  const m = /^([a-z][a-z0-9\-_.]*[a-z0-9]):/i.exec(volume);
  return m ? m[1] : undefined;
}

/** True when a drive is a CD-ROM (`media=cdrom`), as qemu-server decides. */
export function isCdrom(drive: string | PropertyValues): boolean {
  if (typeof drive === "string") return drive.split(",").some((part) => part === "media=cdrom");
  return drive.media === "cdrom";
}

/** True for a cloud-init drive (`local-lvm:vm-100-cloudinit`). */
export function isCloudinitDrive(drive: string | PropertyValues): boolean {
  const volume = typeof drive === "string" ? volumeOf(drive) : String(drive.file ?? drive.volume ?? "");
  return volume !== undefined && /[:/](?:vm-\d+-)?cloudinit(?:\.(?:raw|cow|qcow|qcow2|qed|vmdk|cloop))?$/.test(volume);
}

/** The create/update syntax that asks PVE to allocate a new volume: `STORAGE:SIZE_IN_GiB` (e.g. `local-lvm:32`). */
export function parseNewVolume(volume: string): { storage?: string; bytes: number } | undefined {
  const m = /^(?:([^/:\s]+):)?(\d+(?:\.\d+)?)$/.exec(volume);
  if (!m) return undefined;
  return { storage: m[1], bytes: Math.floor(Number(m[2]) * GIB) };
}

/** Parses a NIC: qemu `virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,tag=120` -> { model, macaddr, bridge, tag }; lxc `name=eth0,bridge=vmbr0,hwaddr=...`. */
export function parseNet(value: string, kind: GuestKind = "qemu", key = "net0", options: ParseOptions = {}): PropertyValues {
  return parsePropertyString(value, subSchemaFor(kind, key), key, options);
}

/** Prints a NIC as PVE writes it (qemu: `model=MAC` first, then the rest sorted; lxc: `name` first). */
export function printNet(values: Record<string, PropertyValue | undefined>, kind: GuestKind = "qemu", key = "net0"): string {
  return printPropertyString(values, subSchemaFor(kind, key), { key });
}

/** The MAC address of a NIC value, upper-cased for comparison, whatever its spelling. */
export function macOf(values: PropertyValues): string | undefined {
  const mac = values.macaddr ?? values.hwaddr;
  return typeof mac === "string" ? mac.toUpperCase() : undefined;
}

export interface BootOrder {
  /** `order=` devices in boot order (`scsi0`, `ide2`, `net0`). */
  order: string[];
  /** The deprecated `legacy` letters (`cdn`), when the value uses them. */
  legacy?: string;
}

/** Parses a qemu `boot` value: `order=scsi0;ide2;net0`, or the legacy `cdn` form. */
export function parseBoot(value: string): BootOrder {
  const values = parsePropertyString(value, subSchemaFor("qemu", "boot"), "boot");
  const order = typeof values.order === "string" ? splitList(values.order) : [];
  return typeof values.legacy === "string" ? { order, legacy: values.legacy } : { order };
}

/** Prints a boot order as PVE stores it: `order=scsi0;ide2;net0`. */
export function printBoot(order: string[]): string {
  return printPropertyString({ order: order.join(";") }, subSchemaFor("qemu", "boot"), { key: "boot" });
}

/** Parses a cloud-init `ipconfigN` value: `ip=10.0.0.5/24,gw=10.0.0.1,ip6=dhcp`. */
export function parseIpconfig(value: string, key = "ipconfig0"): PropertyValues {
  return parsePropertyString(value, subSchemaFor("qemu", key), key);
}

export function printIpconfig(values: Record<string, PropertyValue | undefined>, key = "ipconfig0"): string {
  return printPropertyString(values, subSchemaFor("qemu", key), { key });
}

/** Parses an `agent` value (`1`, `enabled=1,fstrim_cloned_disks=1`). */
export function parseAgent(value: string): PropertyValues {
  return parsePropertyString(value, subSchemaFor("qemu", "agent"), "agent");
}

export interface StartupOrder {
  order?: number;
  up?: number;
  down?: number;
}

/** Parses a `startup` value (`order=1,up=30,down=60`; a bare number is the order), as PVE's pve-startup-order. */
export function parseStartup(value: string): StartupOrder {
  const result: StartupOrder = {};
  const fail = (): never => {
    throw new PveFormatError("startup order", value, "unable to parse startup options", "Write e.g. order=1,up=30,down=60.");
  };
  if (value === "" || value === "0") fail();
  for (const part of value.split(",")) {
    if (/^\s*$/.test(part)) continue;
    const m = /^(?:(order|up|down)=)?(\d+)$/.exec(part) ?? fail();
    result[(m[1] ?? "order") as keyof StartupOrder] = Number(m[2]);
  }
  return result;
}

/** Prints a startup order in PVE's key order (order, up, down). */
export function printStartup(startup: StartupOrder): string {
  return (["order", "up", "down"] as const)
    .filter((key) => startup[key] !== undefined)
    .map((key) => `${key}=${startup[key]}`)
    .join(",");
}

/**
 * The form PVE would store a config value in, for comparing live and desired values:
 * property strings re-printed in PVE's order with PVE's spellings (`ssd=on` -> `ssd=1`,
 * `size=32768M` -> `size=32G`), tag lists de-duplicated and sorted. Other values are
 * returned as given. Throws PropertyStringError when PVE would refuse the value.
 */
export function canonicalConfigValue(kind: GuestKind, key: string, value: string): string {
  if (key === "tags") return printTags(normaliseTags(value));
  const schema = guestSubSchema(kind, key);
  if (!schema) return value;
  return printPropertyString(parsePropertyString(value, schema, key), schema, { key });
}
