// Reads a guest's config as PVE returns it (GET .../config, or .../pending for the pending
// section too) into the normalized LiveVm.
import type { ConfigValue, PendingEntry } from "../../api/endpoints/index.js";
import { isCdrom, isCloudinitDrive, isDriveSlot, isUnusedKey, storageOfVolume, volumeOf } from "../../pve/index.js";
import { configParts } from "../formats.js";
import type { GuestMeta } from "../kind.js";
import { liveGuestFields } from "../live-base.js";
import { configInEffect, effectiveConfig } from "../pending.js";
import { type LiveDisk, type LiveNic, type LiveVm, NIC_SLOT } from "./model.js";
import { normalizeOption, PVE_DEFAULTS } from "./options.js";

export type { ConfigValue, PendingEntry } from "../../api/endpoints/index.js";

const SKIPPED_KEYS = new Set(["digest", "lock", "name", "tags"]);

/**
 * A volume's image format as pve-storage's parse_volname gives it: path storages (and LVM's
 * volume chains) name the file with it (`100/vm-100-disk-0.qcow2`), block storages hold raw.
 */
function volumeFormat(volume: string, storage: string | undefined): string | undefined {
  if (storage === undefined) return undefined;
  return /\.(raw|qcow2|vmdk)$/.exec(volume)?.[1] ?? "raw";
}

/** `local-lvm:vm-100-disk-0,iothread=1,size=32G` -> LiveDisk (read with PVE's drive schema). */
export function parseDriveString(slot: string, text: string): LiveDisk {
  // A value PVE's schema refuses (an old config) still names its volume; its options are not read.
  const parts = configParts(slot, text, "qemu") ?? { file: volumeOf(text) ?? text };
  const volume = parts.file ?? "";
  const kind = isCloudinitDrive(volume) ? "cloudinit" : isCdrom(parts) ? "cdrom" : "disk";
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(parts)) {
    if (key !== "file" && key !== "size" && key !== "media") options[key] = value;
  }
  const storage = storageOfVolume(volume);
  const format = kind === "disk" ? (parts.format ?? volumeFormat(volume, storage)) : undefined;
  return {
    slot,
    kind,
    volume,
    ...(storage !== undefined ? { storage } : {}),
    ...(parts.size !== undefined ? { sizeBytes: Number(parts.size) } : {}),
    ...(format !== undefined ? { format } : {}),
    options,
  };
}

/** `virtio=BC:24:11:AB:CD:EF,bridge=vmbr0,firewall=1` -> LiveNic (read with PVE's net schema). */
export function parseNicString(slot: string, text: string): LiveNic {
  const { model = "", macaddr, bridge, ...options } = configParts(slot, text, "qemu") ?? {};
  return {
    slot,
    model,
    ...(macaddr !== undefined ? { macaddr: macaddr.toUpperCase() } : {}),
    ...(bridge !== undefined ? { bridge } : {}),
    options,
  };
}

/** Builds the LiveVm from a config object (the effective one: pending values applied). */
export function liveVmFromConfig(meta: GuestMeta, config: Record<string, ConfigValue | undefined>, pendingKeys: string[] = []): LiveVm {
  const disks: Record<string, LiveDisk> = {};
  const nics: Record<string, LiveNic> = {};
  const unused: Record<string, string> = {};
  const options: Record<string, string> = {};
  for (const [key, raw] of Object.entries(config)) {
    if (raw === undefined || SKIPPED_KEYS.has(key)) continue;
    const text = String(raw);
    if (isDriveSlot(key)) disks[key] = parseDriveString(key, text);
    else if (NIC_SLOT.test(key)) nics[key] = parseNicString(key, text);
    else if (isUnusedKey(key)) unused[key] = volumeOf(text) ?? text;
    else options[key] = normalizeOption(key, raw);
  }
  const hotplugText = options.hotplug ?? PVE_DEFAULTS.hotplug!;
  return {
    kind: "qemu",
    ...liveGuestFields(meta, config, "name", pendingKeys),
    options,
    disks,
    nics,
    unused,
    hotplug: hotplugText === "0" ? [] : hotplugText === "1" ? ["network", "disk", "usb"] : hotplugText.split(","),
  };
}

/** Builds the LiveVm from GET .../pending (its effective config: ../pending.ts). */
export function liveVmFromPending(meta: GuestMeta, entries: PendingEntry[]): LiveVm {
  const { config, pendingKeys } = effectiveConfig(entries);
  const live = liveVmFromConfig(meta, config, pendingKeys);
  if (pendingKeys.length === 0) return live;
  return { ...live, optionsInEffect: liveVmFromConfig(meta, configInEffect(entries)).options };
}
