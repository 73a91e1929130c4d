// rootfs and mount points keyed by slot: add (a new volume, or a bind mount), option change
// (the same volume), grow (shrink refused), move to another storage, detach (volume kept as
// unusedN) or delete (volume destroyed, data-loss-risk, named). One function per case.
import type { StepDraft } from "../../plan/types.js";
import { humanSize } from "../formats.js";
import { moveSteps } from "../move-step.js";
import type { UnusedSlots } from "../unused-slots.js";
import { lxcCalls } from "./calls.js";
import type { CtDeviceKind, DesiredMount, LiveMount } from "./model.js";
import { describeLiveMount, describeMount, keptMountString, mountOptionDiff, newMountString } from "./mount-values.js";
import { isHostPath } from "./read.js";

export interface MountContext {
  vmid: number;
  node: string;
  running: boolean;
  /** Slots the spec asks to detach (volume kept as unusedN) rather than delete. */
  detach: string[];
  unmanaged?: CtDeviceKind[];
  /** The unusedN keys volumes let go of in this plan will get. */
  unused: UnusedSlots;
  /** The container has snapshots: a move's source stays (they use it). */
  snapshotted?: boolean;
}

export interface MountDiff {
  steps: StepDraft[];
  errors: string[];
  warnings: string[];
}

const PENDING = " (applies at the next restart: the container is running)";

/** The flag every plan writing a bind mount carries (pve-container's check_ct_modify_config_perm). */
export function bindMountWarning(slot: string, path: string): string {
  return `${slot} is a bind mount of host path ${path}: only root@pam may write it (PVE refuses any other user or token)`;
}

export function diffMounts(desired: DesiredMount[], live: Record<string, LiveMount>, ctx: MountContext): MountDiff {
  const out: MountDiff = { steps: [], errors: [], warnings: [] };
  for (const mount of desired) {
    const current = live[mount.slot];
    if (!current) addMount(mount, ctx, out);
    else changeMount(mount, current, ctx, out);
  }
  const wanted = new Set(desired.map((m) => m.slot));
  for (const current of Object.values(live)) {
    // rootfs is never removed (PVE: "unable to delete required option").
    if (wanted.has(current.slot) || current.slot === "rootfs") continue;
    const detach = ctx.detach.includes(current.slot);
    if (ctx.unmanaged?.includes("mounts") && !detach) continue;
    if (detach || isHostPath(current.volume)) out.steps.push(detachStep(current, ctx));
    else if (ctx.running) {
      out.errors.push(
        `${current.slot}: deleting mount point ${describeLiveMount(current)} from a running container waits for its restart, ` +
          "so its volume cannot be destroyed in this apply; stop the container first (power: stopped), or list the slot under detach: to keep the volume",
      );
    } else out.steps.push(deleteStep(current, ctx));
  }
  return out;
}

function addMount(mount: DesiredMount, ctx: MountContext, out: MountDiff): void {
  if (mount.slot === "rootfs") {
    out.errors.push("rootfs is missing from the container's config; pvectl cannot add one (restore the container or recreate it)");
    return;
  }
  if (mount.bindPath === undefined && (mount.storage === undefined || mount.sizeBytes === undefined)) {
    out.errors.push(`${mount.slot}: a new mount point needs a storage and a size (or a host path for a bind mount)`);
    return;
  }
  if (mount.bindPath !== undefined) out.warnings.push(bindMountWarning(mount.slot, mount.bindPath));
  // A mount point that does not exist yet is hot-plugged into a running container.
  out.steps.push({
    action: "disk-add",
    severity: "configuration",
    summary: `add ${mount.slot}: ${describeMount(mount)}`,
    changes: [{ field: mount.slot, after: describeMount(mount) }],
    calls: [lxcCalls.config(ctx.node, ctx.vmid, { [mount.slot]: newMountString(mount) }, { allocates: mount.bindPath === undefined })],
  });
}

function changeMount(mount: DesiredMount, current: LiveMount, ctx: MountContext, out: MountDiff): void {
  const liveBind = isHostPath(current.volume);
  if ((mount.bindPath !== undefined) !== liveBind) {
    out.errors.push(
      `${mount.slot} holds ${liveBind ? "a bind mount" : "a volume"} (${current.volume}) but the spec describes ${liveBind ? "a volume" : "a bind mount"}; ` +
        `use another slot, or detach ${mount.slot} first`,
    );
    return;
  }
  if (mount.bindPath !== undefined) {
    out.warnings.push(bindMountWarning(mount.slot, mount.bindPath));
    if (mount.bindPath !== current.volume) {
      optionStep(
        mount,
        current,
        [{ field: `${mount.slot}.path`, before: current.volume, after: mount.bindPath }],
        ctx,
        out,
        newMountString(mount),
      );
      return;
    }
  } else {
    moveMount(mount, current, ctx, out);
    if (mount.sizeBytes !== undefined && current.sizeBytes !== undefined && mount.sizeBytes !== current.sizeBytes) {
      resizeMount(mount.slot, mount.sizeBytes, current.sizeBytes, mount.storage ?? current.storage, ctx, out);
    }
  }
  const changes = mountOptionDiff(mount, current).map((c) => ({ ...c, field: `${mount.slot}.${c.field}` }));
  if (changes.length > 0) optionStep(mount, current, changes, ctx, out, keptMountString(mount, current));
}

/** Another storage: the volume is copied there (offline: PVE refuses a running container); the source is kept as unusedN unless --allow-data-loss lets the next step destroy it. */
function moveMount(mount: DesiredMount, current: LiveMount, ctx: MountContext, out: MountDiff): void {
  if (mount.storage === undefined || current.storage === undefined || mount.storage === current.storage) return;
  if (ctx.running) {
    out.errors.push(
      `${mount.slot}: moving ${current.volume} to ${mount.storage} needs the container stopped (PVE moves container volumes offline); ` +
        "set power: stopped for this apply, then running again",
    );
    return;
  }
  const target = mount.storage;
  const source = {
    slot: mount.slot,
    volume: current.volume,
    storage: current.storage,
    ...(current.sizeBytes !== undefined ? { sizeBytes: current.sizeBytes } : {}),
  };
  out.steps.push(
    ...moveSteps(source, target, ctx.unused, {
      online: false,
      guest: "container",
      node: ctx.node,
      vmid: ctx.vmid,
      snapshotted: ctx.snapshotted ?? false,
      move: (deleteSource) => lxcCalls.moveVolume(ctx.node, ctx.vmid, mount.slot, target, deleteSource, current.sizeBytes),
      destroy: (key) => lxcCalls.destroyUnused(ctx.node, ctx.vmid, key, current.volume),
    }),
  );
}

/** Grow to the size asked (PVE grows running containers' volumes too); shrinking is refused. */
function resizeMount(slot: string, wanted: number, now: number, storage: string | undefined, ctx: MountContext, out: MountDiff): void {
  if (wanted < now) {
    out.errors.push(
      `${slot}: shrinking from ${humanSize(now)} to ${humanSize(wanted)} is refused ` +
        `(PVE cannot shrink container volumes and data would be lost); set size to at least ${humanSize(now)}`,
    );
    return;
  }
  out.steps.push({
    action: "disk-grow",
    severity: "configuration",
    summary: `grow ${slot} from ${humanSize(now)} to ${humanSize(wanted)}`,
    changes: [{ field: `${slot}.size`, before: humanSize(now), after: humanSize(wanted) }],
    calls: [lxcCalls.resize(ctx.node, ctx.vmid, slot, wanted, { fromBytes: now, ...(storage !== undefined ? { storage } : {}) })],
  });
}

/** The same slot written again (new options or mount path): waits for the next start on a running container. */
function optionStep(
  mount: DesiredMount,
  current: LiveMount,
  changes: StepDraft["changes"],
  ctx: MountContext,
  out: MountDiff,
  value: string,
): void {
  out.steps.push({
    action: "disk-options",
    severity: ctx.running ? "service-impact" : "configuration",
    summary: `change ${mount.slot} (same ${isHostPath(current.volume) ? "slot" : `volume ${current.volume}`})${ctx.running ? PENDING : ""}`,
    changes,
    calls: [lxcCalls.config(ctx.node, ctx.vmid, { [mount.slot]: value })],
    ...(ctx.running ? { pendingUntilReboot: true as const } : {}),
  });
}

/** A mount point the spec asks to detach, or a bind mount dropped: the volume (or host path) is kept. */
function detachStep(current: LiveMount, ctx: MountContext): StepDraft {
  // A stopped container's volume becomes unusedN now (a running one's at its restart).
  if (!ctx.running && !isHostPath(current.volume)) ctx.unused.take();
  const kept = isHostPath(current.volume)
    ? ` (host path ${current.volume} untouched)`
    : ` (volume ${current.volume} kept as an unused volume)`;
  return {
    action: "disk-detach",
    severity: ctx.running ? "service-impact" : "configuration",
    summary: `detach ${current.slot}${kept}${ctx.running ? PENDING : ""}`,
    changes: [{ field: current.slot, before: describeLiveMount(current) }],
    calls: [lxcCalls.config(ctx.node, ctx.vmid, { delete: current.slot })],
    ...(ctx.running ? { pendingUntilReboot: true as const } : {}),
  };
}

/** A mount point left out of a written `mounts:` section: removed, and its volume (then unusedN) destroyed. */
function deleteStep(current: LiveMount, ctx: MountContext): StepDraft {
  const unused = ctx.unused.take();
  ctx.unused.free(unused);
  return {
    action: "disk-delete",
    severity: "data-loss-risk",
    summary: `delete ${current.slot} and destroy volume ${current.volume}`,
    changes: [{ field: current.slot, before: describeLiveMount(current) }],
    // PVE keeps a removed mount point's volume as unusedN; deleting that entry destroys it.
    calls: [
      lxcCalls.config(ctx.node, ctx.vmid, { delete: current.slot }),
      lxcCalls.destroyUnused(ctx.node, ctx.vmid, unused, current.volume),
    ],
    deletesVolumes: [current.volume],
  };
}
