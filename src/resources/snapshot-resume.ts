// A rerun of `snapshot create NAME` (after a kill or a fault stopped the first run part way):
// a guest that already has NAME is done, unless its snapshot is not one this command would
// have made. What can be told from PVE's listing: its description, whether it holds the RAM,
// and when it was taken; a snapshot that differs in one of them, or is more than a day older
// than this run, is someone else's (or an old one of the same name) and is reported, never
// counted as done.
import type { SnapshotEntry } from "./snapshot-prune.js";

/** How long before this run a snapshot of the name may have been taken and still count as an earlier try of it. */
export const RESUME_WINDOW_SECONDS = 24 * 3600;

export interface CreateWish {
  name: string;
  description?: string;
  /** The command saves the RAM of this guest (--vmstate, a running VM). */
  savesRam: boolean;
  /** --vmstate was asked for (a VM stopped since the first run has no RAM to compare). */
  askedRam: boolean;
}

function utc(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Why `existing` is not the snapshot this command makes (undefined: it is, from an earlier run). */
export function notThisRuns(existing: SnapshotEntry, wish: CreateWish, nowSeconds: number): string | undefined {
  const differences: string[] = [];
  if (existing.snaptime !== undefined && nowSeconds - existing.snaptime > RESUME_WINDOW_SECONDS) {
    differences.push(`it was taken ${utc(existing.snaptime)}, more than a day before this run`);
  }
  const had = (existing.description ?? "").trim();
  const want = (wish.description ?? "").trim();
  if (had !== want) differences.push(`its description is ${had ? `'${had}'` : "empty"}, this command's ${want ? `'${want}'` : "is empty"}`);
  if (existing.vmstate === true && !wish.askedRam) differences.push("it holds the RAM, this command saves none");
  if (existing.vmstate !== true && wish.savesRam) differences.push("it holds no RAM, this command saves it (--vmstate)");
  return differences.length > 0 ? differences.join("; ") : undefined;
}

/** The note of a guest an earlier run already took the snapshot of. */
export function alreadyTaken(label: string, existing: SnapshotEntry): string {
  const when = existing.snaptime !== undefined ? ` (taken ${utc(existing.snaptime)})` : "";
  return `already done: ${label} has snapshot '${existing.name}'${when}, taken by an earlier run of this command; nothing to do`;
}
