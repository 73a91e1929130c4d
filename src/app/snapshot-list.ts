// `snapshot list` as a use case: the snapshots of the selected guests, oldest first, read-only.
// Guests pvectl did not create are listed too (reading changes nothing); templates are left out.
// A guest whose snapshots cannot be read is listed with the reason, the others still are.
import { getGuestSnapshots, type ListedSnapshot } from "../api/endpoints/snapshots.js";
import type { PveClient } from "../api/index.js";
import { readCluster } from "../engine/cluster.js";
import { errorText } from "../engine/retry-policy.js";
import { type GuestSelector, type Selection, selectGuests } from "../engine/selection.js";
import { guestKeys } from "../engine/snapshot-plan.js";
import type { GuestType } from "../plan/intent.js";
import { mapConcurrent } from "../util/concurrency.js";

export interface ListedGuestSnapshot {
  name: string;
  snaptime?: number;
  description?: string;
  parent?: string;
  vmstate?: boolean;
}

export interface GuestSnapshots {
  key: string;
  vmid: number;
  name?: string;
  node: string;
  kind: GuestType;
  snapshots: ListedGuestSnapshot[];
  /** Why this guest's snapshots could not be read (its first line); `snapshots` is then empty. */
  error?: string;
}

export interface SnapshotListing {
  guests: GuestSnapshots[];
  /** The guests selected, skipped and not found (the CLI names the skipped and the missing). */
  selection: Selection;
}

function entry(s: ListedSnapshot): ListedGuestSnapshot {
  return {
    name: s.name,
    ...(s.snaptime !== undefined ? { snaptime: Number(s.snaptime) } : {}),
    ...(s.description ? { description: s.description } : {}),
    ...(s.parent !== undefined ? { parent: s.parent } : {}),
    ...(s.vmstate !== undefined ? { vmstate: Boolean(Number(s.vmstate)) } : {}),
  };
}

export async function listSnapshots(client: PveClient, selector: GuestSelector): Promise<SnapshotListing> {
  const cluster = await readCluster(client);
  // Reading is harmless: guests pvectl did not create are listed too.
  const selection = selectGuests(cluster.guests, { ...selector, includeForeign: true, excludeTemplates: true });
  const keys = guestKeys(selection.guests);
  const guests = await mapConcurrent(selection.guests, 16, async (g): Promise<GuestSnapshots> => {
    const base = {
      key: keys.get(g.vmid)!,
      vmid: g.vmid,
      ...(g.name !== undefined ? { name: g.name } : {}),
      node: g.node,
      kind: g.type,
    };
    try {
      const listed = await getGuestSnapshots(client, g.type, g.node, g.vmid);
      const snapshots = listed
        .filter((s) => s.name !== "current")
        .map(entry)
        .sort((a, b) => (a.snaptime ?? 0) - (b.snaptime ?? 0));
      return { ...base, snapshots };
    } catch (err) {
      return { ...base, snapshots: [], error: errorText(err).split("\n")[0]! };
    }
  });
  return { guests, selection };
}
