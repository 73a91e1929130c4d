// Destroying a guest, planned the same way for every kind: a running guest is shut down first
// (service impact), then destroyed with `purge` (data loss), its own volumes listed as deleted
// and another guest's (a linked clone's base) as kept. The kind says only what differs
// (`GuestKind.destruction`): which volumes its config names, whose a volume is, how the step
// names the guest, and its calls.
import type { ApiCall, GuestPlan, StepDraft } from "../plan/types.js";
import { type GuestStepCalls, stopStep, withIds } from "./guest-steps.js";
import { type AnyGuestKind, type LiveGuest, planKindField } from "./index.js";
import type { PowerOptions } from "./kind.js";

/** What a kind tells the shared destroy plan. */
export interface GuestDestruction<L> {
  /** Every volume the guest's config names that PVE's destroy frees when the guest owns it (no host paths, no CD-ROM images). */
  volumes(live: L): string[];
  /** The vmid a volume belongs to, by its name (`vm-100-disk-0`); undefined: no guest's. */
  volumeOwner(volume: string): number | undefined;
  /** How the step's summary names the guest ("web1", "container db1"). */
  title(live: L): string;
  /** What else PVE deletes, as the summary adds it after the volumes ("" when nothing). */
  alsoDeletes(live: L): string;
  /** How the lock warning names the guest ("guest", "container"). */
  lockedNoun: string;
  /** The destroy call (with `purge`: backup jobs, replication and HA drop the vmid too). */
  call(node: string, vmid: number): ApiCall;
  /** The kind's power call, for the stop before the destroy. */
  power: GuestStepCalls["power"];
}

/** The guest's volumes a destroy deletes (its own) and keeps (another guest's), each sorted. */
export function destroyedVolumes<L>(how: GuestDestruction<L>, live: L & { vmid: number }): { deleted: string[]; kept: string[] } {
  const deleted = new Set<string>();
  const kept = new Set<string>();
  for (const volume of how.volumes(live)) (how.volumeOwner(volume) === live.vmid ? deleted : kept).add(volume);
  return { deleted: [...deleted].sort(), kept: [...kept].sort() };
}

/** The destroy step itself: data loss, listing the volumes it deletes. */
export function destroyStep<L extends LiveGuest>(how: GuestDestruction<L>, live: L): StepDraft {
  const { deleted: volumes, kept } = destroyedVolumes(how, live);
  const keeps = kept.length ? `; keeps ${kept.join(", ")} (owned by another guest)` : "";
  return {
    action: "destroy",
    severity: "data-loss-risk",
    summary:
      `destroy ${how.title(live)} (vmid ${live.vmid}) and ` +
      (volumes.length ? `its volumes ${volumes.join(", ")}` : "its config (no volumes)") +
      how.alsoDeletes(live) +
      keeps,
    changes: [{ field: "guest", before: `${live.name ?? ""} vmid ${live.vmid} on ${live.node}`.trim() }],
    calls: [how.call(live.node, live.vmid)],
    deletesVolumes: volumes,
  };
}

/** The plan that removes a live guest (the spec says absent, or `pvectl destroy`). */
export function planGuestDestroy(kind: AnyGuestKind, key: string, live: LiveGuest, power: PowerOptions): GuestPlan {
  const how = kind.destruction;
  const drafts: StepDraft[] = [];
  if (live.status === "running") drafts.push(stopStep(how, live, power, "before destroying it "));
  drafts.push(destroyStep(how, live));
  return {
    ...planKindField(kind.type),
    key,
    name: live.name ?? key,
    vmid: live.vmid,
    node: live.node,
    exists: true,
    ...(live.digest !== undefined ? { digest: live.digest } : {}),
    steps: withIds(key, drafts),
    errors: [],
    warnings: live.lock ? [`${how.lockedNoun} is locked (${live.lock}); apply waits and retries`] : [],
  };
}
