// What pvectl reads of a guest needs: its config, pending changes and status (VM.Audit on
// /vms/<vmid>). Without VM.Audit PVE leaves the guest out of /cluster/resources, so pvectl would
// think it absent and plan a create that fails: preflight checks VM.Audit like any step's
// privilege, and `access needs` lists it. A clone also reads its source; a guest of a pool, the pool.

import type { GuestPlan, PrivilegeNeed, RequiredPrivilege } from "../plan/types.js";
import type { CloneSourceFacts } from "../resources/clone-step.js";
import type { DesiredGuest } from "../resources/index.js";
import { orThroughPool, poolCreatedInto } from "./plan-needs.js";

const AUDIT = "VM.Audit";

/** The reads of one spec guest (and of its clone source). */
export function readNeeds(guest: DesiredGuest, source: CloneSourceFacts | undefined): PrivilegeNeed[] {
  const needs: PrivilegeNeed[] = [{ path: `/vms/${guest.vmid ?? "{vmid}"}`, privilege: AUDIT }];
  // Preflight looks the pool up in GET /pools, which lists only the pools one may audit.
  const pool = "pool" in guest ? guest.pool : undefined;
  if (pool) needs.push({ path: `/pool/${pool}`, privilege: "Pool.Audit" });
  if (source !== undefined) needs.push({ path: `/vms/${source.vmid}`, privilege: AUDIT });
  return needs;
}

/**
 * The reads a plan's guests need, for preflight: each guest the plan changes and whose vmid is
 * known is read back while apply runs. A guest created into a pool is read through the pool.
 */
export function planReadNeeds(guests: GuestPlan[]): RequiredPrivilege[] {
  const out: RequiredPrivilege[] = [];
  for (const guest of guests) {
    const first = guest.steps[0];
    if (first === undefined || guest.vmid === undefined) continue;
    const into = poolCreatedInto(guest);
    const need: RequiredPrivilege = { path: `/vms/${guest.vmid}`, privilege: AUDIT, stepId: first.id };
    out.push(into !== undefined ? orThroughPool(need, into) : need);
  }
  return out;
}
