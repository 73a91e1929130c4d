// pvectl's library entry point: the pieces other programs can use directly.

export {
  clientOptionsFromEnv,
  type EndpointStat,
  formatStats,
  isPveError,
  normalizeFingerprint,
  type PermissionFailure,
  PveClient,
  type PveClientOptions,
  PveError,
  type PveErrorKind,
  type PveFailureClass,
  parsePermissionFailure,
  type TaskFailure,
  type TaskResult,
  type WaitOptions,
} from "./api/index.js";
export * from "./app/index.js";
export type { ApplyEvent } from "./engine/apply.js";
export type { ApplyProgress } from "./engine/apply-guest.js";
export { PreflightFailedError } from "./engine/errors.js";
// What the use cases take, return and throw, and the saved-plan files of `plan --out`.
export type { PlanContext, PlanOptions } from "./engine/plan.js";
export type { ApplyReport, GuestReport, GuestResult, StepReport } from "./engine/report.js";
export {
  checkSpecFiles,
  loadPlan,
  type SavedPlan,
  type SavedPlanContent,
  SavedPlanError,
  type SavedPlanOptions,
  savedPlanContent,
  savePlan,
} from "./engine/saved-plan.js";
export type { Selection, ShownGuests } from "./engine/show.js";
export {
  type AnsibleInventory,
  buildInventory,
  collectGuests,
  type FactsLevel,
  generateInventory,
  type InventoryApi,
  type InventoryConfig,
  InventoryError,
  type InventoryGuest,
  type InventorySource,
  loadInventoryConfig,
  parseInventoryConfig,
  pluginHostVars,
} from "./inventory/index.js";
export * from "./netbox/index.js";
export {
  type ApiCall,
  type FieldChange,
  type GuestPlan,
  type Plan,
  type PreflightProblem,
  planHasChanges,
  planHasErrors,
  type Severity,
  type Step,
  type StepAction,
} from "./plan/types.js";
export * from "./pve/index.js";
export type {
  ApiMethod,
  ApiParams,
  ApiPath,
  ApiReturns,
  EndpointSchema,
  ParamSchema,
  PathsWith,
  PveApi,
  SubSchema,
} from "./schema/index.js";
export {
  allEndpoints,
  getEndpoint,
  getFormat,
  isCodeFormat,
  matchEndpoint,
  paramSchema,
  pathExists,
} from "./schema/index.js";
export {
  type AccessLogSummary,
  type RequestFaultSpec,
  type RunningSimulator,
  type SimAdmin,
  SimConfigFileError,
  SimListenError,
  type SimulatorOptions,
  StateDirError,
  StateFileError,
  startSimulator,
  type TaskFaultSpec,
} from "./sim/index.js";
export { ConnectionError, connectionOptions, resolveConnection } from "./sources/connections.js";
export * from "./sources/netbox/index.js";
export {
  type AgentSpec,
  type CdromSpec,
  type CloudInitSpec,
  type ConnectionSpec,
  type DeviceSection,
  type DiskOptions,
  type DiskSpec,
  describeVm,
  type EfiDiskSpec,
  type IpConfigSpec,
  loadSpecFiles,
  type NicSpec,
  parseSpec,
  type SourceLocation,
  type SpecDocument,
  SpecError,
  type SpecIssue,
  specJsonSchema,
  type TpmSpec,
  type VmSpec,
} from "./sources/spec/index.js";
export { PvectlError, type PvectlErrorJson } from "./util/errors.js";
