// The snapshot write use cases (create, delete, rollback, prune over a selection of guests): a
// plan that runs through applyPlan like any other, and the checks the CLI makes on its input
// before anything is read.
export { DEFAULT_MIN_FREE_PERCENT, planSnapshots, type SnapshotPlanOptions, type SnapshotPlanResult } from "../engine/snapshot-plan.js";
export { snapshotNameProblem } from "../resources/snapshot-name.js";
export type { SnapshotOperation } from "../resources/snapshot-steps.js";
