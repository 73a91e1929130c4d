// Read-only backup views: the archives of selected guests (`backup list`) and the guests no
// enabled backup job covers (`backup status`). Reading is not changing: guests pvectl did not create
// are included.
import { getNotBackedUp, getStorageContent } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import { type GuestSummary, readCluster } from "../engine/cluster.js";
import { type GuestSelector, namesGuests, selectGuests } from "../engine/selection.js";
import type { GuestType } from "../plan/intent.js";
import { coveredByEnabledJobs, readBackupJobs } from "../resources/objects.js";
import { guestCreatedAt, madeBeforeGuest } from "./guest-created.js";

export interface ArchiveEntry {
  vmid: number;
  name?: string;
  volid: string;
  storage: string;
  /** The node whose listing shows it (for a local storage, where the file is). */
  node: string;
  size: number;
  ctime?: number;
  notes?: string;
  protected: boolean;
  /**
   * Made before this guest was created: an archive a previous guest with the same vmid left
   * (guest-created.ts); restore or prune it as that guest's, never as this one's.
   */
  previousGuest?: true;
}

export interface BackupListing {
  archives: ArchiveEntry[];
  /** What the selector names that the cluster does not have. */
  notFound: string[];
}

/**
 * The archives of the selected guests on `storage`, or on every storage that holds backups;
 * a shared storage is read on one node (each node sees the same archives).
 */
export async function listBackups(client: PveClient, selector: GuestSelector, storage?: string): Promise<BackupListing> {
  const cluster = await readCluster(client);
  const selection = selectGuests(cluster.guests, { ...selector, includeForeign: true });
  const byVmid = new Map(selection.guests.map((g) => [g.vmid, g]));
  const holders = cluster.storages.filter(
    (s) => s.available && s.content.includes("backup") && (storage === undefined || s.storage === storage),
  );
  const read = new Set<string>();
  const archives: ArchiveEntry[] = [];
  // Read once per guest that has archives.
  const created = new Map<number, Promise<number | undefined>>();
  const createdAt = (guest: GuestSummary) => {
    if (!created.has(guest.vmid)) created.set(guest.vmid, guestCreatedAt(client, guest));
    return created.get(guest.vmid)!;
  };
  for (const holder of holders) {
    const key = holder.shared ? holder.storage : `${holder.node}/${holder.storage}`;
    if (read.has(key)) continue;
    read.add(key);
    for (const v of await getStorageContent(client, holder.node, holder.storage, { content: "backup" })) {
      const guest = v.vmid !== undefined ? byVmid.get(Number(v.vmid)) : undefined;
      if (guest === undefined) continue;
      const entry = entryOf(v, guest, holder.storage, holder.node);
      if (madeBeforeGuest(entry.ctime, await createdAt(guest))) entry.previousGuest = true;
      archives.push(entry);
    }
  }
  archives.sort((a, b) => a.vmid - b.vmid || (a.ctime ?? 0) - (b.ctime ?? 0) || a.volid.localeCompare(b.volid));
  return { archives, notFound: selection.notFound };
}

function entryOf(
  v: { volid: string; size: number; ctime?: number; notes?: string; protected?: boolean | 0 | 1 },
  guest: GuestSummary,
  storage: string,
  node: string,
): ArchiveEntry {
  return {
    vmid: guest.vmid,
    ...(guest.name !== undefined ? { name: guest.name } : {}),
    volid: v.volid,
    storage,
    node,
    size: Number(v.size),
    ...(v.ctime !== undefined ? { ctime: Number(v.ctime) } : {}),
    ...(v.notes !== undefined && v.notes !== "" ? { notes: v.notes } : {}),
    protected: v.protected === true || v.protected === 1,
  };
}

export interface UncoveredGuest {
  vmid: number;
  name?: string;
  type: GuestType;
  node?: string;
}

/**
 * Guests in no enabled backup job, narrowed to the selection when one is given. PVE's own list
 * (not-backed-up) counts disabled jobs as coverage and lists templates; so a guest is
 * uncovered when PVE lists it or no enabled job picks it, and templates are left out (a
 * template does not change: one archive of it, from `backup run`, is all it needs).
 */
export async function backupStatus(client: PveClient, selector: GuestSelector): Promise<UncoveredGuest[]> {
  const [cluster, listed, jobs] = await Promise.all([readCluster(client), getNotBackedUp(client), readBackupJobs(client)]);
  const selected = namesGuests(selector)
    ? new Set(selectGuests(cluster.guests, { ...selector, includeForeign: true }).guests.map((g) => g.vmid))
    : undefined;
  const byVmid = new Map(cluster.guests.map((g) => [g.vmid, g]));
  const covered = coveredByEnabledJobs(jobs, cluster.guests);
  const uncovered = new Map<number, UncoveredGuest>();
  for (const g of listed)
    uncovered.set(Number(g.vmid), { vmid: Number(g.vmid), ...(g.name !== undefined ? { name: g.name } : {}), type: g.type });
  for (const g of cluster.guests)
    if (!covered.has(g.vmid) && !uncovered.has(g.vmid))
      uncovered.set(g.vmid, { vmid: g.vmid, ...(g.name !== undefined ? { name: g.name } : {}), type: g.type });
  return [...uncovered.values()]
    .filter((g) => byVmid.get(g.vmid)?.template !== true && (selected === undefined || selected.has(g.vmid)))
    .map((g) => {
      const node = byVmid.get(g.vmid)?.node;
      return { ...g, ...(node !== undefined ? { node } : {}) };
    })
    .sort((a, b) => a.vmid - b.vmid);
}
