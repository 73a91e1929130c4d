// pvectl's library entry point: the pieces other programs can use directly.
export {
  allEndpoints,
  getEndpoint,
  getFormat,
  isCodeFormat,
  matchEndpoint,
  paramSchema,
  pathExists,
} from "./schema/index.js";
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
export { PvectlError, type PvectlErrorJson } from "./util/errors.js";
export * from "./pve/index.js";
export {
  describeVm,
  loadSpecFiles,
  parseSpec,
  SpecError,
  specJsonSchema,
  type AgentSpec,
  type CdromSpec,
  type CloudInitSpec,
  type ConnectionSpec,
  type DiskOptions,
  type DeviceSection,
  type DiskSpec,
  type EfiDiskSpec,
  type IpConfigSpec,
  type NicSpec,
  type SourceLocation,
  type SpecDocument,
  type SpecIssue,
  type TpmSpec,
  type VmSpec,
} from "./sources/spec/index.js";
export { ConnectionError, connectionOptions, resolveConnection } from "./sources/connections.js";
export {
  clientOptionsFromEnv,
  formatStats,
  isPveError,
  normalizeFingerprint,
  parsePermissionFailure,
  PveClient,
  PveError,
  type EndpointStat,
  type PermissionFailure,
  type PveClientOptions,
  type PveErrorKind,
  type PveFailureClass,
  type TaskFailure,
  type TaskResult,
  type WaitOptions,
} from "./api/index.js";
export {
  SimConfigFileError,
  SimListenError,
  startSimulator,
  StateDirError,
  StateFileError,
  type AccessLogSummary,
  type RequestFaultSpec,
  type RunningSimulator,
  type SimAdmin,
  type SimulatorOptions,
  type TaskFaultSpec,
} from "./sim/index.js";
export * from "./netbox/index.js";
export * from "./sources/netbox/index.js";
export * from "./app/index.js";
// What the use cases take, return and throw, and the saved-plan files of `plan --out`.
export type { PlanContext, PlanOptions } from "./engine/plan.js";
export type { ApplyEvent } from "./engine/apply.js";
export type { ApplyProgress } from "./engine/apply-guest.js";
export { PreflightFailedError } from "./engine/errors.js";
export type { ApplyReport, GuestReport, GuestResult, StepReport } from "./engine/report.js";
export type { Selection, ShownGuests } from "./engine/show.js";
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
export {
  type ApiCall,
  type FieldChange,
  type GuestPlan,
  type Plan,
  planHasChanges,
  planHasErrors,
  type PreflightProblem,
  type Severity,
  type Step,
  type StepAction,
} from "./plan/types.js";
export {
  buildInventory,
  collectGuests,
  generateInventory,
  InventoryError,
  loadInventoryConfig,
  parseInventoryConfig,
  pluginHostVars,
  type AnsibleInventory,
  type FactsLevel,
  type InventoryApi,
  type InventoryConfig,
  type InventoryGuest,
  type InventorySource,
} from "./inventory/index.js";
