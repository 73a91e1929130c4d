// `backup prune`: PVE's own retention logic decides (its prune dry run marks each archive
// keep, remove, protected or renamed); the plan deletes each archive marked `remove`, one
// named step each, so the plan is exactly what apply does: an archive made between plan and
// apply is not touched (a server-side prune would judge it too).
import { endpointCall } from "../../plan/call.js";
import type { GuestType } from "../../plan/intent.js";
import type { GuestPlan, StepDraft } from "../../plan/types.js";
import { type ArchiveGuest, guestKey, guestLabel, numbered } from "./guests.js";

/** PVE's keep options (`prune-backups` property string keys). */
export const KEEP_OPTIONS = ["keep-last", "keep-hourly", "keep-daily", "keep-weekly", "keep-monthly", "keep-yearly"] as const;
export type KeepOption = (typeof KEEP_OPTIONS)[number];
export type Retention = Partial<Record<KeepOption, number>>;

/** `keep-last=3,keep-daily=7`: the value PVE's prune endpoints take. */
export function retentionText(retention: Retention): string {
  return KEEP_OPTIONS.filter((k) => retention[k] !== undefined)
    .map((k) => `${k}=${retention[k]}`)
    .join(",");
}

/** One archive with PVE's verdict, and where it was listed (a local storage is read per node). */
export interface MarkedArchive {
  volid: string;
  /** The guest it belongs to. */
  vmid: number;
  node: string;
  storage: string;
  ctime?: number;
  mark: string;
}

export function planPruneGuest(guest: ArchiveGuest, archives: MarkedArchive[], retention: Retention): GuestPlan {
  const key = guestKey(guest);
  const ordered = [...archives].sort((a, b) => (a.ctime ?? 0) - (b.ctime ?? 0));
  const drafts = ordered.filter((a) => a.mark === "remove").map((a) => deleteStep(guest.type, guest, a, retention));
  const warnings = ordered
    .filter((a) => a.mark === "protected" || a.mark === "renamed")
    .map((a) =>
      a.mark === "protected"
        ? `kept ${a.volid}: protected (unprotect it to let prune remove it)`
        : `kept ${a.volid}: not named as vzdump names archives, so prune never removes it`,
    );
  return {
    kind: guest.type,
    key,
    name: guest.name ?? key,
    vmid: guest.vmid,
    node: guest.node,
    exists: true,
    steps: numbered(key, drafts),
    errors: [],
    warnings,
  };
}

function deleteStep(kind: GuestType, guest: ArchiveGuest, archive: MarkedArchive, retention: Retention): StepDraft {
  const when = archive.ctime !== undefined ? ` from ${new Date(archive.ctime * 1000).toISOString().replace(".000Z", "Z")}` : "";
  return {
    action: "archive-delete",
    severity: "data-loss-risk",
    summary: `delete backup ${archive.volid}${when} of ${guestLabel(guest)} (beyond ${retentionText(retention)})`,
    changes: [],
    deletesVolumes: [archive.volid],
    calls: [
      {
        // The volume id holds `:` and `/`: one path segment, percent-encoded when the call is sent.
        ...endpointCall(
          "DELETE",
          "/nodes/{node}/storage/{storage}/content/{volume}",
          { node: archive.node, storage: archive.storage, volume: archive.volid },
          {},
        ),
        intent: { kind, op: "archive-delete", vmid: guest.vmid, archive: { storage: archive.storage, volume: archive.volid } },
      },
    ],
  };
}
