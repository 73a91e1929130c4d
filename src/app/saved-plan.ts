// Applying a saved plan (`apply --plan FILE`): the plan is recomputed from the spec it was made
// from and the live cluster, and may run only when it equals the saved one.
import type { PveClient } from "../api/index.js";
import type { SavedPlan } from "../engine/saved-plan.js";
import { verifySavedPlan } from "../engine/saved-plan-verify.js";
import { desiredObjectsOf, desiredOf, type PlannedSpec, type SpecGuests } from "./plan-spec.js";

export interface RecomputedPlan extends Required<PlannedSpec> {
  /** Why the saved plan may not run; empty when the recomputed `plan` may be applied. */
  problems: string[];
}

export async function recomputeSavedPlan(client: PveClient, saved: SavedPlan, spec: SpecGuests): Promise<RecomputedPlan> {
  const desired = desiredOf(spec);
  const objects = desiredObjectsOf(spec);
  return { ...(await verifySavedPlan(client, saved, desired, objects)), desired, objects };
}
