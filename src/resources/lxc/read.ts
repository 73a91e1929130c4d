// Reads a container's config as PVE returns it (GET .../config, or .../pending with the
// `[pve:pending]` section) into the normalized LiveCt: mount points and NICs read with PVE's
// own property-string schemas, sizes in bytes, bind mounts recognised by their host path.
import type { ConfigValue, PendingEntry } from "../../api/endpoints/index.js";
import { isUnusedKey, storageOfVolume, volumeOf } from "../../pve/index.js";
import { configParts } from "../formats.js";
import type { GuestMeta } from "../kind.js";
import { liveGuestFields } from "../live-base.js";
import { configInEffect, effectiveConfig } from "../pending.js";
import { CT_NIC_SLOT, type LiveCt, type LiveCtNic, type LiveMount, MOUNT_SLOT } from "./model.js";
import { normalizeCtOption } from "./options.js";

/** Not plain options: read into their own fields (`hostname` is the name), or PVE's raw `lxc.*` lines. */
const SKIPPED_KEYS = new Set(["digest", "lock", "hostname", "tags", "lxc"]);

/** A host path (bind mount) or a device (`/dev/sdb1`): not a volume on a PVE storage. */
export function isHostPath(volume: string): boolean {
  return volume.startsWith("/");
}

/** `local-lvm:vm-200-disk-0,mp=/data,size=8G,backup=1` -> LiveMount (read with PVE's mount point schema). */
export function parseMountString(slot: string, text: string): LiveMount {
  // A value PVE's schema refuses (an old config) still names its volume; its options are not read.
  const { volume = volumeOf(text) ?? text, size, mp, ...options } = configParts(slot, text, "lxc") ?? {};
  const storage = isHostPath(volume) ? undefined : storageOfVolume(volume);
  return {
    slot,
    volume,
    ...(storage !== undefined ? { storage } : {}),
    ...(size !== undefined ? { sizeBytes: Number(size) } : {}),
    ...(mp !== undefined ? { mountpoint: mp } : {}),
    options,
  };
}

/** `name=eth0,bridge=vmbr0,hwaddr=BC:24:11:AB:CD:EF,ip=dhcp,tag=10` -> LiveCtNic (read with PVE's schema). */
export function parseCtNicString(slot: string, text: string): LiveCtNic {
  const { name, hwaddr, bridge, ...options } = configParts(slot, text, "lxc") ?? {};
  return {
    slot,
    ...(name !== undefined ? { name } : {}),
    ...(hwaddr !== undefined ? { hwaddr: hwaddr.toUpperCase() } : {}),
    ...(bridge !== undefined ? { bridge } : {}),
    options,
  };
}

/** Builds the LiveCt from a config object (the effective one: pending values applied). */
export function liveCtFromConfig(meta: GuestMeta, config: Record<string, ConfigValue | undefined>, pendingKeys: string[] = []): LiveCt {
  const mounts: Record<string, LiveMount> = {};
  const nics: Record<string, LiveCtNic> = {};
  const unused: Record<string, string> = {};
  const options: Record<string, string> = {};
  for (const [key, raw] of Object.entries(config)) {
    if (raw === undefined || SKIPPED_KEYS.has(key)) continue;
    const text = String(raw);
    if (MOUNT_SLOT.test(key)) mounts[key] = parseMountString(key, text);
    else if (CT_NIC_SLOT.test(key)) nics[key] = parseCtNicString(key, text);
    else if (isUnusedKey(key)) unused[key] = volumeOf(text) ?? text;
    else options[key] = normalizeCtOption(key, raw);
  }
  return {
    kind: "lxc",
    ...liveGuestFields(meta, config, "hostname", pendingKeys),
    options,
    mounts,
    nics,
    unused,
  };
}

/** Builds the LiveCt from GET .../pending (its effective config: ../pending.ts). */
export function liveCtFromPending(meta: GuestMeta, entries: PendingEntry[]): LiveCt {
  const { config, pendingKeys } = effectiveConfig(entries);
  const live = liveCtFromConfig(meta, config, pendingKeys);
  if (pendingKeys.length === 0) return live;
  return { ...live, optionsInEffect: liveCtFromConfig(meta, configInEffect(entries)).options };
}
