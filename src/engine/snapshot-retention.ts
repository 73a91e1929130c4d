// A spec's `snapshots: { keep, prefix }` in plan and apply: each existing guest with it gets a
// data-loss-risk step per snapshot beyond the retention, after its other steps. The snapshots
// are picked by the same function as `pvectl snapshot prune` (resources/snapshot-prune.ts).
// A guest without `snapshots:` is never read for snapshots, and nothing is ever created here.
import type { PveClient } from "../api/index.js";
import type { GuestPlan } from "../plan/types.js";
import { type DesiredGuest, kindOf, type LiveGuest } from "../resources/index.js";
import { pruneSteps } from "../resources/snapshot-steps.js";
import { mapConcurrent } from "../util/concurrency.js";
import { errorText } from "./retry-policy.js";
import { readSnapshots } from "./snapshot-plan.js";

/** Appends the retention steps to the plans of the guests whose spec entry has `snapshots:`. */
export async function planRetention(
  client: PveClient,
  guests: GuestPlan[],
  desired: DesiredGuest[],
  live: Map<number, LiveGuest>,
): Promise<void> {
  const work = desired.flatMap((d) => {
    const guest = guests.find((g) => g.key === d.key);
    const current = guest?.vmid !== undefined ? live.get(guest.vmid) : undefined;
    // A guest to be created has no snapshots yet; one being destroyed, blocked, or a template is left alone.
    if (d.snapshots === undefined || d.absent || !guest?.exists || guest.errors.length > 0 || current === undefined || current.template)
      return [];
    return [{ retention: d.snapshots, guest, current }];
  });
  await mapConcurrent(work, 8, async ({ retention, guest, current }) => {
    const kind = kindOf(guest).type;
    try {
      const snapshots = await readSnapshots(client, { type: kind, node: current.node, vmid: current.vmid });
      const base = guest.steps.length;
      const drafts = pruneSteps(
        { kind, vmid: current.vmid, node: current.node, name: guest.name, status: current.status, snapshots },
        retention,
      );
      guest.steps.push(...drafts.map((draft, i) => ({ id: `${guest.key}/${base + i + 1}-${draft.action}`, ...draft })));
    } catch (err) {
      guest.errors.push(`snapshots: could not read its snapshots: ${errorText(err).split("\n")[0]}`);
    }
  });
}
