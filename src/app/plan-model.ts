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
