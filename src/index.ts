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
  type TaskFailure,
  type TaskResult,
  type WaitOptions,
} from "./api/index.js";
export {
  SimConfigFileError,
  SimListenError,
  startSimulator,
  StateFileError,
  type AccessLogSummary,
  type RequestFaultSpec,
  type RunningSimulator,
  type SimAdmin,
  type SimulatorOptions,
  type TaskFaultSpec,
} from "./sim/index.js";
export * from "./netbox/index.js";
