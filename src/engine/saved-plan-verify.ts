// `apply --plan FILE`, the engine half: recompute the plan from the spec the saved plan was
// made from and the live cluster, and say why it may not run. Checks go from the coarsest to
// the finest, and the first that fails is reported alone, so the message names the real cause:
// another cluster, then a cluster that changed since (digests), then a plan that differs.
import type { PveClient } from "../api/index.js";
import type { DesiredGuest } from "../resources/index.js";
import type { DesiredObjects } from "../resources/objects.js";
import { compareIdentity, readClusterIdentity } from "./cluster-identity.js";
import { buildPlan, type PlanResult } from "./plan.js";
import { comparePlans } from "./plan-compare.js";
import { checkSavedPlan, type SavedPlan } from "./saved-plan.js";

/** The recomputed plan (what apply runs: its severities, its calls, never the saved ones) and why it may not run. */
export interface VerifiedPlan extends PlanResult {
  /** Why the saved plan may not run; empty when `plan` may be applied. */
  problems: string[];
}

export async function verifySavedPlan(
  client: PveClient,
  saved: SavedPlan,
  desired: DesiredGuest[],
  objects: DesiredObjects = {},
): Promise<VerifiedPlan> {
  const built = await buildPlan(client, desired, saved.options, objects);
  const identity = compareIdentity(saved.cluster, await readClusterIdentity(client, built.context.cluster));
  if (saved.plan.target !== client.origin) identity.unshift(`it was made against ${saved.plan.target}, not ${client.origin}`);
  if (identity.length > 0) return { problems: identity, ...built };
  const stale = await checkSavedPlan(client, saved.plan, built.context.cluster);
  if (stale.length > 0) return { problems: stale, ...built };
  return { problems: comparePlans(saved.plan, built.plan), ...built };
}
