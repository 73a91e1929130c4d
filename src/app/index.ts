// The use cases, one function each: what the CLI, the demo, the tests and library users call.
// A plan is made (planSpec, planDestroy, recomputeSavedPlan), looked at, then run (applyPlan).
export { type ApplyPlanOptions, applyPlan } from "./apply-plan.js";
export { planDestroy } from "./destroy.js";
export { type PlannedSpec, planSpec, type SpecGuests } from "./plan-spec.js";
export { type RecomputedPlan, recomputeSavedPlan } from "./saved-plan.js";
export { type ImportedSpec, importGuests, showSpec } from "./show.js";
export { type DecommissionOptions, type DecommissionOutcome, type DecommissionReport, decommissionNetbox } from "./netbox/decommission.js";
export { type RecordOutcome, type RecordResult, type SyncOptions, type SyncReport, syncNetbox } from "./netbox/sync.js";
export {
  type AccessCheck,
  type AccessNeeds,
  type AccessSpec,
  accessSpec,
  type AclSubject,
  checkAccess,
  type MissingPrivilege,
  specAccessNeeds,
} from "./access.js";
