// The mount point value strings the lxc kind writes (new volumes, bind mounts, an existing
// volume with new options) and how mount points are described in a plan. Printing goes
// through PVE's own mount point format (pve/).
import type { FieldChange } from "../../plan/types.js";
import { GIB, printDrive } from "../../pve/index.js";
import { humanSize } from "../formats.js";
import type { DesiredMount, LiveMount } from "./model.js";

/**
 * PVE's value for a mount point sub-option that is not written: a volume mount point is not
 * backed up unless `backup=1` (rootfs always is), replicated unless `replicate=0`.
 */
export const MOUNT_OPTION_DEFAULTS: Record<string, string> = { backup: "0", quota: "0", replicate: "1", ro: "0", shared: "0" };

function defaultOf(slot: string, key: string): string | undefined {
  // rootfs is always in a backup, whatever `backup` says.
  if (slot === "rootfs" && key === "backup") return undefined;
  return MOUNT_OPTION_DEFAULTS[key];
}

/** `local-lvm:8,mp=/data,backup=1` (PVE's STORAGE:SIZE_IN_GiB for a new volume) or `/srv/data,mp=/data` (bind mount). */
export function newMountString(mount: DesiredMount): string {
  const volume = mount.bindPath ?? `${mount.storage}:${Number(((mount.sizeBytes ?? 0) / GIB).toFixed(6))}`;
  return printDrive(mount.slot, { ...mount.options, volume, ...(mount.mountpoint !== undefined ? { mp: mount.mountpoint } : {}) }, "lxc");
}

/** The existing volume written back with the spec's options over the live ones (PVE keeps the volume). */
export function keptMountString(mount: DesiredMount, current: LiveMount): string {
  const mp = mount.mountpoint ?? current.mountpoint;
  return printDrive(
    mount.slot,
    {
      ...current.options,
      ...mount.options,
      volume: current.volume,
      ...(mp !== undefined ? { mp } : {}),
      ...(current.sizeBytes !== undefined ? { size: current.sizeBytes } : {}),
    },
    "lxc",
  );
}

export function describeMount(mount: DesiredMount): string {
  const where = mount.mountpoint !== undefined ? ` at ${mount.mountpoint}` : "";
  const opts = Object.entries(mount.options).map(([k, v]) => `${k}=${v}`);
  const extra = opts.length ? ` (${opts.join(", ")})` : "";
  if (mount.bindPath !== undefined) return `bind mount of host path ${mount.bindPath}${where}${extra}`;
  return `${humanSize(mount.sizeBytes ?? 0)} on ${mount.storage}${where}${extra}`;
}

export function describeLiveMount(mount: LiveMount): string {
  const size = mount.sizeBytes !== undefined ? ` (${humanSize(mount.sizeBytes)})` : "";
  return `${mount.volume}${size}${mount.mountpoint !== undefined ? ` at ${mount.mountpoint}` : ""}`;
}

/** Sub-options (and the mount path) the spec sets that differ from the live ones, or PVE's defaults when unset. */
export function mountOptionDiff(mount: DesiredMount, current: LiveMount): FieldChange[] {
  const changes: FieldChange[] = [];
  if (mount.mountpoint !== undefined && mount.mountpoint !== current.mountpoint) {
    changes.push({
      field: "mountpoint",
      ...(current.mountpoint !== undefined ? { before: current.mountpoint } : {}),
      after: mount.mountpoint,
    });
  }
  for (const [key, value] of Object.entries(mount.options)) {
    const before = current.options[key] ?? defaultOf(mount.slot, key);
    if (before !== value) changes.push({ field: key, ...(before !== undefined ? { before } : {}), after: value });
  }
  return changes;
}
