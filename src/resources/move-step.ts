// A volume moved to another storage, for every kind: the move (what is copied, and whether
// the guest keeps running while it is), then the destroy of the source, which PVE keeps as
// unusedN. The destroy is data-loss-risk, so without --allow-data-loss the source stays, and
// the plan and the report say where and how to remove it: a later plan does not destroy it (no
// record says which unusedN a move left). With it, the volume the plan names is the one
// destroyed (the key is predicted, unused-slots.ts, and checked before the call). A disk of a clone this plan makes
// is moved with its source removed at once: that copy holds nothing of the user's yet. A guest
// with snapshots keeps the source: they still use it (PVE's is_volume_in_use refuses the destroy).
import type { ApiCall, FieldChange, StepDraft } from "../plan/types.js";
import { isClonedVolumeRef } from "./clone-step.js";
import { humanSize } from "./formats.js";
import type { VmidRef } from "./api-paths.js";
import type { UnusedSlots } from "./unused-slots.js";
import { unusedRemoval } from "./unused-removal.js";

export interface MoveSource {
  slot: string;
  volume: string;
  storage: string;
  sizeBytes?: number;
  /** The volume's image format (`raw`, `qcow2` ...), when known. */
  format?: string;
}

export interface MoveHow {
  /** The copy's image format, when the spec sets one (PVE's move `format`; the same storage is allowed then). */
  toFormat?: string;
  /** Copied while the guest runs (a VM's drive-mirror); otherwise the guest is stopped throughout. */
  online: boolean;
  /** "VM" or "container": who keeps running or stays stopped. */
  guest: "VM" | "container";
  /** Where the guest is (the removal command of a kept source names them). */
  node: string;
  vmid: VmidRef;
  /** The move call; `deleteSource`: PVE removes the source once copied. */
  move: (deleteSource: boolean) => ApiCall;
  /**
   * The guest has snapshots: PVE copies only the current state (the snapshots stay with the
   * source) and refuses to destroy a volume a snapshot uses, so the source is kept.
   */
  snapshotted: boolean;
  /** The call that deletes the predicted unusedN key (destroying its volume). */
  destroy: (unusedKey: string) => ApiCall;
}

/** What the move copies and how, as the plan says it: "16 GiB copied online (drive-mirror: the VM keeps running)". */
export function moveManner(source: MoveSource, how: Pick<MoveHow, "online" | "guest">): string {
  const size = source.sizeBytes !== undefined ? humanSize(source.sizeBytes) : "the whole volume";
  return how.online
    ? `${size} copied online (drive-mirror: the ${how.guest} keeps running)`
    : `${size} copied offline (the ${how.guest} is stopped)`;
}

/** The fields a move changes: storage and format where they differ, and what is copied. */
function moveChanges(source: MoveSource, target: string, how: MoveHow, manner: string): FieldChange[] {
  const changes: FieldChange[] = [];
  if (target !== source.storage) changes.push({ field: `${source.slot}.storage`, before: source.storage, after: target });
  if (how.toFormat !== undefined && how.toFormat !== source.format) {
    changes.push({
      field: `${source.slot}.format`,
      ...(source.format !== undefined ? { before: source.format } : {}),
      after: how.toFormat,
    });
  }
  changes.push({ field: `${source.slot}.move`, after: manner });
  return changes;
}

export function moveSteps(source: MoveSource, to: string, unused: UnusedSlots, how: MoveHow): StepDraft[] {
  const manner = moveManner(source, how);
  const changes = moveChanges(source, to, how, manner);
  // "to nfs as qcow2" when the format changes too
  const target = how.toFormat !== undefined && how.toFormat !== source.format ? `${to} as ${how.toFormat}` : to;
  if (isClonedVolumeRef(source.volume)) {
    // The clone step of this plan made the source: it holds nothing of the user's, so the move removes it.
    return [
      {
        action: "disk-move",
        severity: "configuration",
        summary: `move ${source.slot} of the new clone from ${source.storage} to ${target}: ${manner}; the clone's copy on ${source.storage} is removed`,
        changes,
        calls: [how.move(true)],
      },
    ];
  }
  const key = unused.take();
  if (how.snapshotted) {
    return [
      {
        action: "disk-move",
        severity: "configuration",
        summary:
          `move ${source.slot} from ${source.storage} to ${target}: ${manner}, without the ${how.guest}'s snapshots; ` +
          `the source volume ${source.volume} is kept as ${key} (the snapshots still use it, so PVE refuses to destroy it)`,
        changes,
        calls: [how.move(false)],
      },
    ];
  }
  const steps: StepDraft[] = [
    {
      action: "disk-move",
      severity: "configuration",
      summary: `move ${source.slot} from ${source.storage} to ${target}: ${manner}; the source volume ${source.volume} is kept as ${key}`,
      changes,
      calls: [how.move(false)],
    },
    {
      action: "disk-delete",
      severity: "data-loss-risk",
      summary:
        `destroy ${source.volume}, the source of the move of ${source.slot}: without --allow-data-loss it stays as ${key}, and later plans do not destroy it ` +
        `(pvectl keeps no record of the move); remove it then with ${unusedRemoval(how.guest, how.node, how.vmid, key)}`,
      changes: [{ field: key, before: source.volume }],
      calls: [how.destroy(key)],
      deletesVolumes: [source.volume],
    },
  ];
  unused.free(key);
  return steps;
}
