// The plan as the use cases return it and a renderer reads it: guests and objects with their
// steps, each step's severity, the preflight's problems. The CLI reaches the plan model here.
export {
  type ApiCall,
  type FieldChange,
  type GuestPlan,
  type ObjectPlan,
  type Plan,
  planHasChanges,
  planHasErrors,
  type PreflightProblem,
  SEVERITIES,
  type Severity,
  severityCounts,
  severityRank,
  type Step,
  type StepAction,
} from "../plan/types.js";
/** How long a stop step waits for a graceful shutdown unless told otherwise (seconds). */
export { DEFAULT_SHUTDOWN_TIMEOUT } from "../engine/plan.js";
/** How a guest away from its spec's node is read (`--placement`). */
export { PLACEMENT_MODES, type PlacementMode } from "../engine/plan.js";

import type { Plan } from "../plan/types.js";

/** A guest someone else moved (HA, an operator), which pvectl leaves where it is: its spec node and live node. */
export interface PlacementToFollow {
  guest: string;
  vmid?: number;
  specNode: string;
  liveNode: string;
}

/** What `--follow-placement` lists: per moved guest, the node to write into its spec. */
export function placementToFollow(plan: Plan): PlacementToFollow[] {
  return plan.guests.flatMap((g) =>
    g.movedElsewhere !== undefined
      ? [
          {
            guest: g.key,
            ...(g.vmid !== undefined ? { vmid: g.vmid } : {}),
            specNode: g.movedElsewhere.specNode,
            liveNode: g.movedElsewhere.liveNode,
          },
        ]
      : [],
  );
}
