// Disks keyed by slot: add (a new volume), option change (the same volume, never a new one),
// grow (shrink refused), move to another storage, detach (volume kept as unusedN) or delete
// (volume destroyed, data-loss-risk, named).
import type { ApiCall, FieldChange, Step } from "../../plan/types.js";
import { qemuPaths, type VmidRef } from "../api-paths.js";
import { driveBusOf, formatSize, GIB, printDrive } from "../../pve/index.js";
import { humanSize } from "../formats.js";
import type { DesiredDisk, DeviceKind, LiveDisk } from "./model.js";

export type StepDraft = Omit<Step, "id">;

export interface DiskContext {
  vmid: number;
  node: string;
  running: boolean;
  hotplug: string[];
  /** Slots the spec asks to detach (volume kept as unusedN) rather than delete. */
  detach: string[];
  /** Sections the spec left out: unlisted live drives of that kind are kept as they are. */
  unmanaged?: DeviceKind[];
}

/** Which spec section owns a live drive of this kind (the cloud-init drive has its own key, `cloudInit`). */
const SECTION_OF: Record<LiveDisk["kind"], DeviceKind> = { disk: "disks", cdrom: "cdroms", cloudinit: "cloudInit" };

export interface DiskDiff {
  steps: StepDraft[];
  errors: string[];
  warnings: string[];
}

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

/**
 * Sub-options of an attached disk that qemu-server's vmconfig_update_disk cannot change on a
 * running guest (they wait in the pending section for the next reboot). Every other option of
 * the same volume is written at once: throttles are applied live, the rest (backup, replicate,
 * serial ...) are settings PVE takes as they are.
 */
const REBOOT_DRIVE_OPTIONS = new Set(["aio", "cache", "discard", "iothread", "product", "queues", "ro", "ssd", "vendor"]);

export function driveOptionsNeedReboot(fields: string[]): boolean {
  return fields.some((f) => REBOOT_DRIVE_OPTIONS.has(f));
}

/** Whether attaching or removing a drive on this bus can happen while the guest runs. */
function hotpluggable(slot: string, hotplug: string[]): boolean {
  const bus = driveBusOf(slot);
  return (bus === "scsi" || bus === "virtio") && hotplug.includes("disk");
}

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

/**
 * PVE sizes a disk created with `import-from` by its image and ignores the requested size, so
 * a disk that asks for more is grown by the create step itself, right after the create call.
 * The image's size is not known when planning: the resize is `growOnly` (skipped when the
 * image is already that large).
 */
export function importGrowCalls(disks: DesiredDisk[], node: string, vmid: VmidRef): ApiCall[] {
  const calls: ApiCall[] = [];
  for (const disk of disks) {
    if (disk.kind !== "disk" || disk.importFrom === undefined || disk.sizeBytes === undefined) continue;
    calls.push({ method: "PUT", path: qemuPaths.resize(node, vmid), params: { disk: disk.slot, size: formatSize(disk.sizeBytes) }, growOnly: true });
  }
  return calls;
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

function describeLive(disk: LiveDisk): string {
  if (disk.kind === "cdrom") return `CD-ROM ${disk.volume}`;
  if (disk.kind === "cloudinit") return `cloud-init drive ${disk.volume}`;
  return `${disk.volume}${disk.sizeBytes !== undefined ? ` (${humanSize(disk.sizeBytes)})` : ""}`;
}

export function diffDisks(desired: DesiredDisk[], live: Record<string, LiveDisk>, ctx: DiskContext): DiskDiff {
  const out: DiskDiff = { steps: [], errors: [], warnings: [] };
  const config = qemuPaths.config(ctx.node, ctx.vmid);
  const wanted = new Set(desired.map((d) => d.slot));

  for (const disk of desired) {
    const current = live[disk.slot];
    const liveChange = !ctx.running || hotpluggable(disk.slot, ctx.hotplug);
    if (!current) {
      if (disk.kind === "disk" && (disk.storage === undefined || (disk.sizeBytes === undefined && disk.importFrom === undefined))) {
        out.errors.push(`${disk.slot}: a new disk needs a storage and a size`);
        continue;
      }
      const value = disk.kind === "cdrom" ? cdromString(disk) : newVolumeString(disk);
      out.steps.push({
        action: "disk-add",
        severity: liveChange ? "configuration" : "service-impact",
        summary: `add ${disk.slot}: ${describeDisk(disk)}${liveChange ? "" : " (pending until reboot)"}`,
        changes: [{ field: disk.slot, after: describeDisk(disk) }],
        // POST: allocating a volume runs as a task in PVE, awaited like any other.
        calls: [{ method: "POST", path: config, params: { [disk.slot]: value } }],
        ...(liveChange ? {} : { pendingUntilReboot: true }),
      });
      continue;
    }
    if (current.kind !== disk.kind) {
      out.errors.push(
        `${disk.slot} holds a ${current.kind} (${current.volume}) but the spec describes a ${disk.kind}; ` +
          `use another slot, or remove the ${current.kind} from ${disk.slot} first`,
      );
      continue;
    }
    if (disk.kind === "cloudinit") {
      if (disk.storage !== current.storage) {
        out.warnings.push(`${disk.slot}: the cloud-init drive is on ${current.storage}, the spec says ${disk.storage}; left as it is`);
      }
      continue;
    }
    if (disk.kind === "cdrom") {
      const wantIso = disk.iso ?? "none";
      const optionChanges = optionDiff(disk.options, current.options);
      if (wantIso !== current.volume || optionChanges.length > 0) {
        const changes: FieldChange[] = [];
        if (wantIso !== current.volume) changes.push({ field: `${disk.slot}.iso`, before: current.volume, after: wantIso });
        changes.push(...optionChanges.map((c) => ({ ...c, field: `${disk.slot}.${c.field}` })));
        out.steps.push({
          action: "disk-options",
          severity: "configuration",
          summary: `change CD-ROM ${disk.slot}`,
          changes,
          calls: [{ method: "PUT", path: config, params: { [disk.slot]: cdromString(disk, current.options) } }],
        });
      }
      continue;
    }
    // A disk that exists: storage, size and options are separate steps on the same volume.
    if (disk.storage !== undefined && current.storage !== undefined && disk.storage !== current.storage) {
      out.steps.push({
        action: "disk-move",
        severity: "configuration",
        summary: `move ${disk.slot} from ${current.storage} to ${disk.storage} (data copied, then the source volume ${current.volume} is removed)`,
        changes: [{ field: `${disk.slot}.storage`, before: current.storage, after: disk.storage }],
        calls: [
          {
            method: "POST",
            path: qemuPaths.moveDisk(ctx.node, ctx.vmid),
            params: { disk: disk.slot, storage: disk.storage, delete: 1 },
          },
        ],
      });
    }
    if (disk.sizeBytes !== undefined && current.sizeBytes !== undefined && disk.sizeBytes !== current.sizeBytes) {
      if (disk.sizeBytes < current.sizeBytes && disk.importFrom !== undefined) {
        // An imported disk is at least its image: a size below it is a minimum already met.
        out.warnings.push(
          `${disk.slot} is ${humanSize(current.sizeBytes)} (its image ${disk.importFrom} is larger than the ${humanSize(disk.sizeBytes)} the spec asks); left as it is`,
        );
      } else if (disk.sizeBytes < current.sizeBytes) {
        out.errors.push(
          `${disk.slot}: shrinking from ${humanSize(current.sizeBytes)} to ${humanSize(disk.sizeBytes)} is refused ` +
            `(PVE cannot shrink disks and data would be lost); set size to at least ${humanSize(current.sizeBytes)}`,
        );
      } else {
        out.steps.push({
          action: "disk-grow",
          severity: "configuration",
          summary: `grow ${disk.slot} from ${humanSize(current.sizeBytes)} to ${humanSize(disk.sizeBytes)}`,
          changes: [{ field: `${disk.slot}.size`, before: humanSize(current.sizeBytes), after: humanSize(disk.sizeBytes) }],
          calls: [
            {
              method: "PUT",
              path: qemuPaths.resize(ctx.node, ctx.vmid),
              params: { disk: disk.slot, size: formatSize(disk.sizeBytes) },
            },
          ],
        });
      }
    }
    const optionChanges = optionDiff(disk.options, current.options);
    if (optionChanges.length > 0) {
      const live = !ctx.running || !driveOptionsNeedReboot(optionChanges.map((c) => c.field));
      const merged: Record<string, string | number> = { ...current.options, ...disk.options };
      if (current.sizeBytes !== undefined) merged.size = current.sizeBytes;
      out.steps.push({
        action: "disk-options",
        severity: live ? "configuration" : "service-impact",
        summary: `change options of ${disk.slot} (same volume ${current.volume})${live ? "" : " (pending until reboot)"}`,
        changes: optionChanges.map((c) => ({ ...c, field: `${disk.slot}.${c.field}` })),
        // The existing volume is written back with the new options: PVE keeps the volume.
        calls: [{ method: "PUT", path: config, params: { [disk.slot]: printDrive(disk.slot, { ...merged, file: current.volume }) } }],
        ...(live ? {} : { pendingUntilReboot: true }),
      });
    }
  }

  for (const current of Object.values(live)) {
    if (wanted.has(current.slot)) continue;
    // A section the spec does not write is not managed: its drives stay (an explicit detach still applies).
    const section = SECTION_OF[current.kind];
    if (ctx.unmanaged?.includes(section) && !ctx.detach.includes(current.slot)) continue;
    const liveChange = !ctx.running || hotpluggable(current.slot, ctx.hotplug);
    const pending = liveChange ? {} : { pendingUntilReboot: true };
    if (current.kind !== "disk" || ctx.detach.includes(current.slot)) {
      const what =
        current.kind === "cdrom"
          ? `remove CD-ROM drive ${current.slot}`
          : current.kind === "cloudinit"
            ? `remove the cloud-init drive ${current.slot}`
            : `detach ${current.slot}`;
      const kept = current.kind === "disk" ? ` (volume ${current.volume} kept as an unused disk)` : "";
      // A running guest loses the device: hot-unplugged now, or at the reboot it waits for.
      const how = !ctx.running ? "" : liveChange ? " (hot-unplugged from the running guest)" : " (pending until reboot)";
      out.steps.push({
        action: "disk-detach",
        severity: ctx.running ? "service-impact" : "configuration",
        summary: `${what}${kept}${how}`,
        changes: [{ field: current.slot, before: describeLive(current) }],
        calls: [{ method: "PUT", path: config, params: { delete: current.slot } }],
        ...pending,
      });
      continue;
    }
    out.steps.push({
      action: "disk-delete",
      severity: "data-loss-risk",
      summary: `delete ${current.slot} and destroy volume ${current.volume}${liveChange ? "" : " (pending until reboot)"}`,
      changes: [{ field: current.slot, before: describeLive(current) }],
      calls: [{ method: "PUT", path: config, params: { delete: current.slot, force: 1 } }],
      deletesVolumes: [current.volume],
      ...pending,
    });
  }
  return out;
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
