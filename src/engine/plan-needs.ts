// The privileges a plan's guest steps need, as PVE judges each step when it runs. A guest the
// plan creates or clones into a pool is a member from that step on, and PVE gives a pool's
// members the pool's roles (pve-access-control RPCEnvironment compile_acl_path), so what its
// follow-ups (config, resize, template conversion, power ...) need on /vms/<vmid> may be held on
// /pool/<pool> instead: exactly what `access needs` grants for a pooled spec.
import type { GuestPlan, PrivilegeNeed, RequiredPrivilege } from "../plan/types.js";
import { stepNeeds } from "./privileges.js";

/** The pool the guest's first step creates or clones it into, if any. */
export function poolCreatedInto(guest: GuestPlan): string | undefined {
  const first = guest.steps[0];
  const intent = first?.calls.map((c) => c.intent).find((i) => i.op === "create" || i.op === "clone");
  return intent !== undefined && "pool" in intent && intent.pool ? intent.pool : undefined;
}

/** `need` (on a guest's path) with the pool's path accepted for each of its privileges. */
export function orThroughPool<N extends PrivilegeNeed>(need: N, pool: string): N {
  const onPool = (need.anyOf ?? [need.privilege]).map((privilege) => ({ path: `/pool/${pool}`, privilege }));
  const orOn = [...(need.orOn ?? [])];
  for (const o of onPool) if (!orOn.some((h) => h.path === o.path && h.privilege === o.privilege)) orOn.push(o);
  return { ...need, orOn };
}

/**
 * Every privilege the guests' steps need, the path of each guest this plan creates into a pool
 * reachable through that pool: its own follow-ups, and other guests' steps on it (a clone of a
 * template the same plan makes in the pool needs VM.Clone on the template, held on the pool).
 */
export function planStepNeeds(guests: GuestPlan[]): RequiredPrivilege[] {
  const poolOfPath = new Map<string, string>();
  for (const guest of guests) {
    const pool = poolCreatedInto(guest);
    if (pool !== undefined && guest.vmid !== undefined) poolOfPath.set(`/vms/${guest.vmid}`, pool);
  }
  const seen = new Set<string>();
  const out: RequiredPrivilege[] = [];
  for (const guest of guests) {
    // A guest without a vmid yet is `/vms/{vmid}` in its own steps only.
    const ownPool = guest.vmid === undefined ? poolCreatedInto(guest) : undefined;
    for (const need of stepNeeds(guest.steps)) {
      const pool = need.path === "/vms/{vmid}" ? ownPool : poolOfPath.get(need.path);
      const scoped = pool !== undefined ? orThroughPool(need, pool) : need;
      // The same need of two guests is reported once; a guest reached through a pool is another
      // need, and so is one with other alternatives (PUT config's "any VM.Config.*" is met by
      // VM.Config.Options, a disk added in it needs VM.Config.Disk itself).
      const key = `${scoped.path} ${scoped.privilege} ${JSON.stringify(scoped.anyOf ?? [])} ${scoped.unlessCaller ?? ""} ${JSON.stringify(scoped.orOn ?? [])}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(scoped);
    }
  }
  return out;
}
