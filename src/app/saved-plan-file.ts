// The saved-plan file of `plan --out FILE` and `apply --plan FILE`: written with the spec
// files' SHA-256, the plan options and the cluster's identity; read back and refused when it is
// not a plan pvectl saved or its spec files changed since.
export {
  checkSpecFiles,
  loadPlan,
  type SavedPlan,
  type SavedPlanContent,
  SavedPlanError,
  type SavedPlanOptions,
  savedPlanContent,
  savePlan,
} from "../engine/saved-plan.js";
