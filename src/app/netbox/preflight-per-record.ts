// A preflight problem that names one guest is that guest's record's problem: the record fails
// with it and the other records go on (sync and decommission alike). A problem that names no
// guest (the token lacks a cluster-wide privilege, say) blocks every record of the plan.
import type { GuestPlan, Plan } from "../../plan/types.js";

/** Guests that a preflight problem names carry it as their error (apply runs no guest with errors); the problems that name no guest. */
export function isolatePreflight(plan: Plan): { plan: Plan; blockedAll: string[] } {
  const perGuest = new Map<string, string[]>();
  const blockedAll: string[] = [];
  for (const p of plan.preflightErrors) {
    if (p.guest === undefined) blockedAll.push(p.message);
    else perGuest.set(p.guest, [...(perGuest.get(p.guest) ?? []), p.message]);
  }
  const guests: GuestPlan[] = plan.guests.map((g) => {
    const problems = perGuest.get(g.key) ?? perGuest.get(g.name);
    return problems ? { ...g, errors: [...g.errors, ...problems] } : g;
  });
  return { plan: { ...plan, guests, preflightErrors: [] }, blockedAll };
}
