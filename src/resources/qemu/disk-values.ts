// The drive value strings the qemu kind writes (new volumes, CD-ROMs) and how drives are
// described in a plan. Printing goes through PVE's own drive format (pve/).
import type { FieldChange } from "../../plan/types.js";
import { GIB, printDrive } from "../../pve/index.js";
import { humanSize } from "../formats.js";
import type { DesiredDisk, LiveDisk } from "./model.js";

/** PVE's value for a drive sub-option that is not written. */
export const DRIVE_OPTION_DEFAULTS: Record<string, string> = {
  backup: "1",
  replicate: "1",
  ssd: "0",
  iothread: "0",
  discard: "ignore",
  shared: "0",
  ro: "0",
  scsiblock: "0",
  snapshot: "0",
  detect_zeroes: "1",
};

/** `local-lvm:32,discard=on` — PVE's STORAGE:SIZE_IN_GiB syntax for a new volume. */
export function newVolumeString(disk: DesiredDisk): string {
  if (disk.kind === "cloudinit") return printDrive(disk.slot, { file: `${disk.storage}:cloudinit`, media: "cdrom" });
  const extra: Record<string, string> = { ...disk.options };
  if (disk.format !== undefined) extra.format = disk.format;
  if (disk.importFrom !== undefined) {
    // PVE sizes an imported disk from its image: STORAGE:0 plus import-from.
    return printDrive(disk.slot, { ...extra, file: `${disk.storage}:0`, "import-from": disk.importFrom });
  }
  const gib = Number(((disk.sizeBytes ?? 0) / GIB).toFixed(6));
  return printDrive(disk.slot, { ...extra, file: `${disk.storage}:${gib}` });
}

export function cdromString(disk: DesiredDisk, liveOptions: Record<string, string> = {}): string {
  return printDrive(disk.slot, { ...liveOptions, ...disk.options, file: disk.iso ?? "none", media: "cdrom" });
}

export function describeDisk(disk: DesiredDisk): string {
  if (disk.kind === "cdrom") return `CD-ROM ${disk.iso ?? "none"}`;
  if (disk.kind === "cloudinit") return `cloud-init drive on ${disk.storage}`;
  if (disk.importFrom !== undefined) {
    const grown = disk.sizeBytes !== undefined ? `, grown to ${humanSize(disk.sizeBytes)} if the image is smaller` : "";
    return `imported from ${disk.importFrom} on ${disk.storage}${grown}`;
  }
  const opts = Object.entries(disk.options).map(([k, v]) => `${k}=${v}`);
  return `${humanSize(disk.sizeBytes ?? 0)} on ${disk.storage}${opts.length ? ` (${opts.join(", ")})` : ""}`;
}

export function describeLive(disk: LiveDisk): string {
  if (disk.kind === "cdrom") return `CD-ROM ${disk.volume}`;
  if (disk.kind === "cloudinit") return `cloud-init drive ${disk.volume}`;
  return `${disk.volume}${disk.sizeBytes !== undefined ? ` (${humanSize(disk.sizeBytes)})` : ""}`;
}

/** Sub-options the spec sets that differ from the live value (or PVE's default when unset). */
export function optionDiff(wanted: Record<string, string>, live: Record<string, string>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(wanted)) {
    const before = live[key] ?? DRIVE_OPTION_DEFAULTS[key];
    if (before !== value) changes.push({ field: key, ...(before !== undefined ? { before } : {}), after: value });
  }
  return changes;
}
