// Pool membership of an existing guest, of any kind: join, leave (`pool: ""`) or move to another pool.
// PVE keeps membership outside the guest's config (user.cfg), so these are calls on /pools,
// not config keys. A spec without `pool:` does not manage membership.
import type { StepDraft } from "../plan/types.js";
import { poolCalls } from "./pool-calls.js";

/** `pool: ""` in a spec: the guest belongs to no pool. */
export const NO_POOL = "";

/** The step that brings the guest's membership to the spec's, or none. */
export function poolDrafts(vm: { pool?: string | undefined }, live: { vmid: number; pool?: string | undefined }): StepDraft[] {
  const wanted = vm.pool;
  const current = live.pool ?? NO_POOL;
  if (wanted === undefined || wanted === current) return [];
  if (wanted === NO_POOL) {
    return [
      {
        action: "pool",
        severity: "configuration",
        summary: `leave pool ${current}`,
        changes: [{ field: "pool", before: current }],
        calls: [poolCalls.leave(current, live.vmid)],
      },
    ];
  }
  if (current === NO_POOL) {
    return [
      {
        action: "pool",
        severity: "configuration",
        summary: `join pool ${wanted}`,
        changes: [{ field: "pool", after: wanted }],
        calls: [poolCalls.join(wanted, live.vmid)],
      },
    ];
  }
  return [
    {
      action: "pool",
      severity: "configuration",
      summary: `move from pool ${current} to pool ${wanted}`,
      changes: [{ field: "pool", before: current, after: wanted }],
      // allow-move: PVE moves the guest in one update (no moment without a pool).
      calls: [poolCalls.move(wanted, live.vmid, current)],
    },
  ];
}
