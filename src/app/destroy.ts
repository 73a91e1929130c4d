// Destroying a spec's guests (`pvectl destroy`): the guests that exist, planned for
// destruction with every volume that goes named; applyPlan runs it under the guard rails.
import type { PveClient } from "../api/index.js";
import { buildDestroyPlan, type PlanOptions } from "../engine/plan.js";
import { desiredOf, type PlannedSpec, type SpecGuests } from "./plan-spec.js";

export async function planDestroy(client: PveClient, spec: SpecGuests, options: PlanOptions = {}): Promise<PlannedSpec> {
  const desired = desiredOf(spec);
  return { plan: await buildDestroyPlan(client, { desired }, options), desired };
}
