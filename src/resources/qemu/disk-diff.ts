// Disks keyed by slot: add (a new volume), option change (the same volume, never a new one),
// grow (shrink refused), move to another storage (source kept as unusedN), detach (volume kept as unusedN) or delete
// (volume destroyed, data-loss-risk, named). One function per case.
import type { ApiCall, StepDraft } from "../../plan/types.js";
import { driveBusOf, printDrive } from "../../pve/index.js";
import type { VmidRef } from "../api-paths.js";
import { humanSize } from "../formats.js";
import { moveSteps } from "../move-step.js";
import type { UnusedSlots } from "../unused-slots.js";
import { qemuCalls } from "./calls.js";
import { cdromString, describeDisk, describeLive, newVolumeString, optionDiff } from "./disk-values.js";
import type { DesiredDisk, DeviceKind, LiveDisk } from "./model.js";

export interface DiskContext {
  vmid: number;
  node: string;
  running: boolean;
  hotplug: string[];
  /** Slots the spec asks to detach (volume kept as unusedN) rather than delete. */
  detach: string[];
  /** Sections the spec left out: unlisted live drives of that kind are kept as they are. */
  unmanaged?: DeviceKind[];
  /**
   * The unusedN keys the sources of moves get. Moves are planned before detaches (which take
   * keys too), so replaying the moves alone predicts their keys.
   */
  unused: UnusedSlots;
  /** The guest has snapshots: a move's source stays (they use it). */
  snapshotted?: boolean;
}

/** Which spec section owns a live drive of this kind (the cloud-init drive has its own key, `cloudInit`). */
const SECTION_OF: Record<LiveDisk["kind"], DeviceKind> = { disk: "disks", cdrom: "cdroms", cloudinit: "cloudInit" };

export interface DiskDiff {
  steps: StepDraft[];
  errors: string[];
  warnings: string[];
}

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

/** Whether a drive in `slot` can be attached or removed now (the guest is stopped, or hotplug allows it). */
function changesLive(slot: string, ctx: DiskContext): boolean {
  return !ctx.running || hotpluggable(slot, ctx.hotplug);
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
    calls.push(qemuCalls.resize(node, vmid, disk.slot, disk.sizeBytes, { growOnly: true }));
  }
  return calls;
}

export function diffDisks(desired: DesiredDisk[], live: Record<string, LiveDisk>, ctx: DiskContext): DiskDiff {
  const out: DiskDiff = { steps: [], errors: [], warnings: [] };
  for (const disk of desired) {
    const current = live[disk.slot];
    if (!current) addDisk(disk, ctx, out);
    else if (current.kind !== disk.kind) {
      out.errors.push(
        `${disk.slot} holds a ${current.kind} (${current.volume}) but the spec describes a ${disk.kind}; ` +
          `use another slot, or remove the ${current.kind} from ${disk.slot} first`,
      );
    } else if (disk.kind === "cloudinit") {
      // No storage asked: the drive stays where it is (a clone's, on its template's storage).
      if (disk.storage !== undefined && disk.storage !== current.storage) {
        out.warnings.push(`${disk.slot}: the cloud-init drive is on ${current.storage}, the spec says ${disk.storage}; left as it is`);
      }
    } else if (disk.kind === "cdrom") changeCdrom(disk, current, ctx, out);
    else changeDisk(disk, current, ctx, out);
  }
  const wanted = new Set(desired.map((d) => d.slot));
  for (const current of Object.values(live)) {
    if (wanted.has(current.slot)) continue;
    // A section the spec does not write is not managed: its drives stay (an explicit detach still applies).
    if (ctx.unmanaged?.includes(SECTION_OF[current.kind]) && !ctx.detach.includes(current.slot)) continue;
    out.steps.push(current.kind !== "disk" || ctx.detach.includes(current.slot) ? detachStep(current, ctx) : deleteStep(current, ctx));
  }
  return out;
}

function addDisk(disk: DesiredDisk, ctx: DiskContext, out: DiskDiff): void {
  if (disk.kind === "disk" && (disk.storage === undefined || (disk.sizeBytes === undefined && disk.importFrom === undefined))) {
    out.errors.push(`${disk.slot}: a new disk needs a storage and a size`);
    return;
  }
  if (disk.kind === "cloudinit" && disk.storage === undefined) {
    out.errors.push(
      `${disk.slot}: the guest has no cloud-init drive there, and a new one needs a storage: name it, or the slot the guest's drive is in`,
    );
    return;
  }
  const liveChange = changesLive(disk.slot, ctx);
  const value = disk.kind === "cdrom" ? cdromString(disk) : newVolumeString(disk);
  out.steps.push({
    action: "disk-add",
    severity: liveChange ? "configuration" : "service-impact",
    summary: `add ${disk.slot}: ${describeDisk(disk)}${liveChange ? "" : " (pending until reboot)"}`,
    changes: [{ field: disk.slot, after: describeDisk(disk) }],
    // POST: allocating a volume runs as a task in PVE, awaited like any other.
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { [disk.slot]: value }, { method: "POST", allocates: true })],
    ...(liveChange ? {} : { pendingUntilReboot: true }),
  });
}

function changeCdrom(disk: DesiredDisk, current: LiveDisk, ctx: DiskContext, out: DiskDiff): void {
  const wantIso = disk.iso ?? "none";
  const optionChanges = optionDiff(disk.options, current.options);
  if (wantIso === current.volume && optionChanges.length === 0) return;
  const changes = optionChanges.map((c) => ({ ...c, field: `${disk.slot}.${c.field}` }));
  if (wantIso !== current.volume) changes.unshift({ field: `${disk.slot}.iso`, before: current.volume, after: wantIso });
  out.steps.push({
    action: "disk-options",
    severity: "configuration",
    summary: `change CD-ROM ${disk.slot}`,
    changes,
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { [disk.slot]: cdromString(disk, current.options) })],
  });
}

/** Another storage, or another format where the spec sets one: the volume is copied there (PVE's move_disk). */
function moveDisk(disk: DesiredDisk, current: LiveDisk, ctx: DiskContext, out: DiskDiff): void {
  const otherStorage = disk.storage !== undefined && current.storage !== undefined && disk.storage !== current.storage;
  // An unset format is not managed; a copy made by this plan's clone has a format not known yet.
  const otherFormat = disk.format !== undefined && current.format !== undefined && disk.format !== current.format;
  if (!(otherStorage || otherFormat) || current.storage === undefined) return;
  const target = disk.storage ?? current.storage;
  const { format } = disk;
  const sizeBytes = current.sizeBytes;
  const source = {
    slot: disk.slot,
    volume: current.volume,
    storage: current.storage,
    ...(sizeBytes !== undefined ? { sizeBytes } : {}),
    ...(current.format !== undefined ? { format: current.format } : {}),
  };
  // qemu-server moves a running VM's disk with drive-mirror, a stopped one's by copying it.
  out.steps.push(
    ...moveSteps(source, target, ctx.unused, {
      online: ctx.running,
      guest: "VM",
      node: ctx.node,
      vmid: ctx.vmid,
      snapshotted: ctx.snapshotted ?? false,
      ...(format !== undefined ? { toFormat: format } : {}),
      move: (deleteSource) =>
        qemuCalls.moveDisk(ctx.node, ctx.vmid, disk.slot, target, deleteSource, {
          ...(sizeBytes !== undefined ? { sizeBytes } : {}),
          ...(format !== undefined ? { format } : {}),
        }),
      destroy: (key) => qemuCalls.destroyUnused(ctx.node, ctx.vmid, key, current.volume),
    }),
  );
}

/** A disk that exists: storage, size and options are separate steps on the same volume. */
function changeDisk(disk: DesiredDisk, current: LiveDisk, ctx: DiskContext, out: DiskDiff): void {
  moveDisk(disk, current, ctx, out);
  if (disk.sizeBytes !== undefined && current.sizeBytes !== undefined && disk.sizeBytes !== current.sizeBytes) {
    resizeDisk(disk, disk.sizeBytes, current, current.sizeBytes, ctx, out);
  }
  const optionChanges = optionDiff(disk.options, current.options);
  if (optionChanges.length === 0) return;
  const live = !ctx.running || !driveOptionsNeedReboot(optionChanges.map((c) => c.field));
  const merged: Record<string, string | number> = { ...current.options, ...disk.options };
  if (current.sizeBytes !== undefined) merged.size = current.sizeBytes;
  out.steps.push({
    action: "disk-options",
    severity: live ? "configuration" : "service-impact",
    summary: `change options of ${disk.slot} (same volume ${current.volume})${live ? "" : " (pending until reboot)"}`,
    changes: optionChanges.map((c) => ({ ...c, field: `${disk.slot}.${c.field}` })),
    // The existing volume is written back with the new options: PVE keeps the volume.
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { [disk.slot]: printDrive(disk.slot, { ...merged, file: current.volume }) })],
    ...(live ? {} : { pendingUntilReboot: true }),
  });
}

/** Grow to the size asked; shrinking is refused, and an imported disk larger than asked is left alone. */
function resizeDisk(disk: DesiredDisk, wanted: number, current: LiveDisk, now: number, ctx: DiskContext, out: DiskDiff): void {
  if (wanted < now && disk.importFrom !== undefined) {
    // An imported disk is at least its image: a size below it is a minimum already met.
    out.warnings.push(
      `${disk.slot} is ${humanSize(now)} (its image ${disk.importFrom} is larger than the ${humanSize(wanted)} the spec asks); left as it is`,
    );
  } else if (wanted < now) {
    out.errors.push(
      `${disk.slot}: shrinking from ${humanSize(now)} to ${humanSize(wanted)} is refused ` +
        `(PVE cannot shrink disks and data would be lost); set size to at least ${humanSize(now)}`,
    );
  } else {
    out.steps.push({
      action: "disk-grow",
      severity: "configuration",
      summary: `grow ${disk.slot} from ${humanSize(now)} to ${humanSize(wanted)}`,
      changes: [{ field: `${disk.slot}.size`, before: humanSize(now), after: humanSize(wanted) }],
      calls: [qemuCalls.resize(ctx.node, ctx.vmid, current.slot, wanted, { fromBytes: now, ...storageOf(disk, current) })],
    });
  }
}

/** Where a grown disk is: the storage the spec moves it to (the move runs first), else where it is. */
function storageOf(disk: DesiredDisk, current: LiveDisk): { storage?: string } {
  const storage = disk.storage ?? current.storage;
  return storage !== undefined ? { storage } : {};
}

/** A CD-ROM or cloud-init drive removed, or a disk the spec asks to detach (its volume stays as unusedN). */
function detachStep(current: LiveDisk, ctx: DiskContext): StepDraft {
  const liveChange = changesLive(current.slot, ctx);
  const what =
    current.kind === "cdrom"
      ? `remove CD-ROM drive ${current.slot}`
      : current.kind === "cloudinit"
        ? `remove the cloud-init drive ${current.slot}`
        : `detach ${current.slot}`;
  const kept = current.kind === "disk" ? ` (volume ${current.volume} kept as an unused disk)` : "";
  // A running guest loses the device: hot-unplugged now, or at the reboot it waits for.
  const how = !ctx.running ? "" : liveChange ? " (hot-unplugged from the running guest)" : " (pending until reboot)";
  return {
    action: "disk-detach",
    severity: ctx.running ? "service-impact" : "configuration",
    summary: `${what}${kept}${how}`,
    changes: [{ field: current.slot, before: describeLive(current) }],
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { delete: current.slot }, { deletedMedia: { [current.slot]: current.kind } })],
    ...(liveChange ? {} : { pendingUntilReboot: true }),
  };
}

/** A disk left out of a written `disks:` section: its volume is destroyed (named in the plan). */
function deleteStep(current: LiveDisk, ctx: DiskContext): StepDraft {
  const liveChange = changesLive(current.slot, ctx);
  return {
    action: "disk-delete",
    severity: "data-loss-risk",
    summary: `delete ${current.slot} and destroy volume ${current.volume}${liveChange ? "" : " (pending until reboot)"}`,
    changes: [{ field: current.slot, before: describeLive(current) }],
    calls: [qemuCalls.config(ctx.node, ctx.vmid, { delete: current.slot, force: 1 }, { deletedMedia: { [current.slot]: current.kind } })],
    deletesVolumes: [current.volume],
    ...(liveChange ? {} : { pendingUntilReboot: true }),
  };
}
