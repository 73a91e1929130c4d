// Applying a plan made by planSpec, planDestroy or recomputeSavedPlan: the engine runs its steps
// under the guard rails, reusing what planning read instead of reading the cluster again.
import type { PveClient } from "../api/index.js";
import { type ApplyOptions, applyPlan as runPlan } from "../engine/apply.js";
import type { ApplyReport } from "../engine/report.js";
import type { PlannedSpec } from "./plan-spec.js";

export interface ApplyPlanOptions extends Omit<ApplyOptions, "cluster" | "live" | "desired"> {
  /**
   * After the run, re-plan each guest whose steps all ran against a fresh read and report it
   * "not converged" when steps are left (`pvectl apply` does; it costs one read per guest).
   */
  verifyConvergence?: boolean;
}

export async function applyPlan(client: PveClient, planned: PlannedSpec, options: ApplyPlanOptions = {}): Promise<ApplyReport> {
  const { verifyConvergence, ...apply } = options;
  return runPlan(client, planned.plan, {
    ...apply,
    ...(planned.context ? { cluster: planned.context.cluster, live: planned.context.live } : {}),
    ...(verifyConvergence ? { desired: planned.desired } : {}),
  });
}
