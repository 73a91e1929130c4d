// What leaving a pool needs, which a spec cannot say: a guest whose spec says `pool: ""`, or
// names another pool than the one it is in, is taken out of its current pool, and PVE checks
// Pool.Allocate on that pool (Pool.pm update_pool: the schema's check on `poolid` for a leave,
// the explicit check on the old pool for `allow-move`). `access check` reads where each such
// guest is today, as the identity running pvectl sees it.
import { getClusterResources } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { ScopedNeed } from "../engine/access-needs.js";
import type { DesiredGuest } from "../resources/index.js";

/** Pool.Allocate on the pool each existing guest would leave, as `access check` compares it. */
export async function leftPoolNeeds(client: PveClient, guests: DesiredGuest[]): Promise<ScopedNeed[]> {
  const managed = guests.filter((g) => g.vmid !== undefined && !g.absent && "pool" in g && g.pool !== undefined);
  if (managed.length === 0) return [];
  const listed = await getClusterResources(client, { type: "vm" });
  const current = new Map(listed.filter((r) => r.vmid !== undefined && r.pool).map((r) => [Number(r.vmid), String(r.pool)]));
  return managed.flatMap((g) => {
    const from = g.vmid === undefined ? undefined : current.get(g.vmid);
    const wanted = "pool" in g ? g.pool : undefined;
    if (from === undefined || from === wanted) return [];
    return [{ path: `/pool/${from}`, privilege: "Pool.Allocate", operation: "pool", user: g.key }];
  });
}
