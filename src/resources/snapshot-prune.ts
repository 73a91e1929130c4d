// Which snapshots retention removes. `snapshot prune` and `apply` (a spec's `snapshots:`) both
// call this one function so they always pick the same snapshots.

/** A snapshot as PVE lists it (GET .../snapshot); `current` is left out by the caller or here. */
export interface SnapshotEntry {
  name: string;
  /** Seconds since the epoch; PVE omits it for `current`. */
  snaptime?: number;
  /** Its description (`snapshot create` compares it on a rerun). */
  description?: string;
  /** A VM snapshot that saved the RAM. */
  vmstate?: boolean;
}

export interface Retention {
  keep: number;
  /** Only snapshots whose name starts with this are candidates; others are never touched. */
  prefix: string;
}

/**
 * The snapshots to delete: among those named with the prefix, all but the newest `keep`.
 * Newest is by snaptime; equal times fall back to the name so the choice is stable.
 * Returned oldest first, the order they are deleted in.
 */
export function snapshotsToPrune(entries: readonly SnapshotEntry[], retention: Retention): SnapshotEntry[] {
  const candidates = entries
    .filter((e) => e.name !== "current" && e.name.startsWith(retention.prefix))
    .sort((a, b) => (a.snaptime ?? 0) - (b.snaptime ?? 0) || a.name.localeCompare(b.name));
  const keep = Math.max(0, Math.floor(retention.keep));
  return candidates.slice(0, Math.max(0, candidates.length - keep));
}
