// Preflight of pool references: every pool a step puts a guest into (create with `pool`,
// join, move) must exist. GET /pools lists only the pools the user may audit, so a pool
// missing from the list is either absent or hidden; the permission dump tells which.
import { getPermissions, getPools } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import { granted } from "./privileges.js";

/** Pools the guests' steps put guests into (an access section must not delete them). */
export function poolsJoinedBy(guests: GuestPlan[]): string[] {
  return [...poolsNamed(guests).keys()];
}

/** Pool id -> keys of the guests whose steps put them there. */
function poolsNamed(guests: GuestPlan[]): Map<string, Set<string>> {
  const pools = new Map<string, Set<string>>();
  for (const guest of guests) {
    for (const step of guest.steps) {
      for (const call of step.calls) {
        const intent = call.intent;
        const joins = intent.op === "pool-membership" && !intent.leave;
        const pool = intent.op === "create" || intent.op === "clone" ? intent.pool : joins ? intent.pool : undefined;
        if (pool === undefined || pool === "") continue;
        const users = pools.get(pool) ?? new Set<string>();
        users.add(guest.key);
        pools.set(pool, users);
      }
    }
  }
  return pools;
}

/** `creating`: pools the plan's objects section creates before the guests run. */
export async function checkPools(client: PveClient, guests: GuestPlan[], creating: string[] = []): Promise<PreflightProblem[]> {
  const named = poolsNamed(guests);
  for (const pool of creating) named.delete(pool);
  if (named.size === 0) return [];
  const listed = await getPools(client);
  const present = new Set((listed ?? []).map((p) => p.poolid));
  const missing = [...named.keys()].filter((p) => !present.has(p)).sort();
  if (missing.length === 0) return [];
  const dump = await getPermissions(client);
  const known = [...present].sort().join(", ") || "none";
  return missing.map((pool) => {
    const path = `/pool/${pool}`;
    const guest = [...(named.get(pool) ?? [])].sort().join(", ");
    if (!granted(dump, path, "Pool.Audit")) {
      return {
        kind: "pool" as const,
        guest,
        path,
        privilege: "Pool.Audit",
        message: `pool ${pool} is not visible to ${client.identity}: it lacks Pool.Audit on ${path}, so PVE does not list it (it may exist); grant Pool.Audit on that path, or check the name`,
      };
    }
    return {
      kind: "pool" as const,
      guest,
      message: `pool ${pool} does not exist (pools: ${known}); create it (pveum pool add ${pool}) or fix the spec`,
    };
  });
}
