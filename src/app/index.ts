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
// Operations over a selection of guests: snapshots, backups, restore (each a plan run by applyPlan).
export { type GuestSelector, type SelectedSpecGuest, SelectionError } from "./selection.js";
export { type GuestSnapshots, type ListedGuestSnapshot, listSnapshots, type SnapshotListing } from "./snapshot-list.js";
export {
  DEFAULT_MIN_FREE_PERCENT,
  planSnapshots,
  type SnapshotOperation,
  type SnapshotPlanOptions,
  type SnapshotPlanResult,
  snapshotNameProblem,
} from "./snapshots.js";
export { type ArchiveEntry, type BackupListing, backupStatus, listBackups, type UncoveredGuest } from "./backup-list.js";
export { type PlannedOperation, planBackupPrune, planBackupRun, type PruneOptions } from "./backup-plan.js";
export {
  BACKUP_COMPRESSIONS,
  BACKUP_MODES,
  type BackupCompression,
  type BackupMode,
  KEEP_OPTIONS,
  type Retention,
} from "./backup-options.js";
export { planRestoreArchive, RestoreInputError, type RestoreOptions } from "./restore.js";
// Where a use case's spec and cluster come from, checked offline first.
export { type ConnectionChoice, openConnection } from "./connection.js";
export { openSpecTarget, readSpecGuests, type SpecTarget, type SpecTargetRequest, specOf } from "./spec-target.js";
export { type SpecValidation, validateSpecFiles } from "./validate.js";
export { UsageError } from "./usage-error.js";
// The inventory, NetBox's clients and the simulators.
export { type ClusterInventory, type ClusterInventoryRequest, clusterInventory } from "./inventory.js";
export { NetboxSetupError, netboxClient, type PveClients, pveClients } from "./netbox/setup.js";
export { type RunningSimulators, SimFlagError, type SimulatorsOptions, startSimulators } from "./sim-start.js";
