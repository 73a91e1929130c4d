// The engine's normalization on top of PVE's own formats (src/pve): property strings are read
// with PVE's schema (`parsePropertyString` and friends), then every value is put in one
// canonical text form (numbers without trailing zeros, booleans as 1/0) so both sides of a
// diff compare as plain strings. Nothing here parses a PVE format by itself.
import {
  type GuestKind,
  guestSubSchema,
  normaliseTags,
  type PropertyValue,
  parseNewVolume,
  parsePropertyString,
  parseStartup,
  printPropertyString,
  printStartup,
  printTags as printTagList,
  splitList,
  volumeOf,
} from "../pve/index.js";

/** Bytes for display: `32 GiB`, `1.5 GiB`, `512 MiB`. */
export function humanSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${Number(value.toFixed(2))} ${units[i]}`;
}

/** Canonical text for a config value: numbers without trailing zeros, booleans as 1/0. */
export function canonical(value: PropertyValue): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") return String(value);
  const trimmed = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed) && !/^0\d/.test(trimmed)) return String(Number(trimmed));
  if (trimmed === "true") return "1";
  if (trimmed === "false") return "0";
  return trimmed;
}

/**
 * A guest config value read as a property string with PVE's schema for `key` of guest type
 * `kind` (qemu `scsi0`, `net1`, `agent` ...; lxc `rootfs`, `mp0`, `net0`, `features`), each value in canonical text (`size` in bytes, aliases resolved,
 * `virtio=MAC` as `model` + `macaddr`). Undefined when `key` has no property-string format or
 * PVE would not read the value.
 */
export function configParts(key: string, text: string, kind: GuestKind): Record<string, string> | undefined {
  const schema = guestSubSchema(kind, key);
  if (!schema) return undefined;
  try {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsePropertyString(text, schema, key))) out[name] = canonical(value);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * A config value PVE reads as a property string (any key with a property-string schema:
 * ipconfig0, agent, vga, usb0, hostpci0, features ...; and `startup`, whose format is code),
 * printed in PVE's key order and spelling with canonical values; undefined when `key` is not
 * one or PVE would not read `text`. Both sides of a diff go through it, so parts written in
 * another order (proxmox_kvm writes what it was given) compare equal.
 */
export function propertyStringInPveOrder(key: string, text: string, kind: GuestKind): string | undefined {
  try {
    if (key === "startup") return printStartup(parseStartup(text));
    const parts = configParts(key, text, kind);
    const schema = guestSubSchema(kind, key);
    return parts === undefined || schema === undefined ? undefined : printPropertyString(parts, schema, { key });
  } catch {
    return undefined;
  }
}

/**
 * The storage a drive value asks PVE to allocate a new volume on: `local-lvm:32`,
 * `local-lvm:0,import-from=...`, `local-lvm:cloudinit`. Undefined for an existing volume.
 */
export function newVolumeStorage(driveValue: string): string | undefined {
  const volume = volumeOf(driveValue) ?? "";
  const cloudinit = /^([^:]+):cloudinit$/.exec(volume);
  return cloudinit ? cloudinit[1] : parseNewVolume(volume)?.storage;
}

/** qemu-server allocates these drives at a size of its own, whatever `STORAGE:SIZE` says: at most 4 MiB (EFI vars, TPM state, a cloud-init image). */
const SMALL_DRIVE = /^(?:efidisk|tpmstate)\d+$/;
const SMALL_DRIVE_BYTES = 4 * 1024 * 1024;

/**
 * The bytes the new volume a drive value asks for takes (`local-lvm:32`: 32 GiB), or undefined
 * when that is not known before it exists (`import-from` sizes it by its image) or nothing is new.
 */
export function newVolumeBytes(key: string, driveValue: string): number | undefined {
  const volume = volumeOf(driveValue) ?? "";
  if (/^[^:]+:cloudinit$/.test(volume) || (SMALL_DRIVE.test(key) && parseNewVolume(volume) !== undefined)) return SMALL_DRIVE_BYTES;
  if (/(?:^|,)import-from=/.test(driveValue)) return undefined;
  return parseNewVolume(volume)?.bytes;
}

/** The bridge of a NIC value (`virtio=...,bridge=vmbr0`), read with PVE's net schema of that guest type. */
export function bridgeOf(netKey: string, value: string, kind: GuestKind): string | undefined {
  return configParts(netKey, value, kind)?.bridge;
}

/** PVE accepts tags separated by `;`, `,` or spaces; returns them unique and sorted, as PVE keeps them. */
export function parseTags(text: string | undefined): string[] {
  if (!text) return [];
  try {
    return normaliseTags(text);
  } catch {
    // A tag PVE would refuse today (an old config): keep it rather than fail the whole read.
    return [...new Set(splitList(text))].sort();
  }
}

export function printTags(tags: string[]): string {
  return printTagList(normaliseTags(tags));
}
