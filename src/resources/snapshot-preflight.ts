// The storage side of a snapshot preflight, pure: can every volume of the guest be
// snapshotted (snapshot-storage.ts's table), and do the thin pools holding them keep enough
// free space. A thin pool that fills up stops every guest on it (LVM-thin switches to
// read-only, ZFS refuses writes), and each snapshot makes later writes take new space there.

import { snapshotUnsupported } from "./snapshot-storage.js";
import type { SnapshotVolume } from "./snapshot-volumes.js";

/** A storage as the node lists it (GET /nodes/{node}/storage). */
export interface StorageFacts {
  type: string;
  total?: number;
  avail?: number;
}

/** Storage types whose free space the snapshot preflight checks (thin provisioned pools). */
const THIN_POOLS = new Set(["lvmthin", "zfspool"]);

/** Why a snapshot of these volumes cannot be taken, one message per volume that cannot. */
export function volumeProblems(label: string, volumes: SnapshotVolume[], storages: ReadonlyMap<string, StorageFacts>): string[] {
  const problems: string[] = [];
  for (const v of volumes) {
    const facts = storages.get(v.storage);
    if (facts === undefined) {
      problems.push(
        `${label}: ${v.slot} (${v.volume}) is on storage ${v.storage}, which this node does not list to you; cannot tell whether it can be snapshotted (needs Datastore.Audit on /storage/${v.storage})`,
      );
      continue;
    }
    const why = snapshotUnsupported(facts.type, v.format);
    if (why !== undefined) problems.push(`${label}: ${v.slot} (${v.volume}) cannot be snapshotted: ${why}`);
  }
  return problems;
}

/** The thin pools among the volumes' storages with less than `minFreePercent` free. */
export function spaceProblems(
  label: string,
  volumes: SnapshotVolume[],
  storages: ReadonlyMap<string, StorageFacts>,
  minFreePercent: number,
): string[] {
  const problems: string[] = [];
  for (const storage of new Set(volumes.map((v) => v.storage))) {
    const facts = storages.get(storage);
    if (facts === undefined || !THIN_POOLS.has(facts.type) || !facts.total || facts.avail === undefined) continue;
    const free = (facts.avail / facts.total) * 100;
    if (free < minFreePercent) {
      problems.push(
        `${label}: thin pool ${storage} has ${free.toFixed(1)}% free, below --min-free ${minFreePercent}%; free space there (or delete old snapshots) first, or lower --min-free`,
      );
    }
  }
  return problems;
}
