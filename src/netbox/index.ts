// NetBox as the source of truth: client, simulator, config, mapping, sync and decommission.
export {
  authorizationHeader,
  NetboxClient,
  type Filters as NetboxFilters,
  type NetboxClientOptions,
  type NetboxEndpoints,
  type NetboxPath,
} from "./client.js";
export { NetboxConnectionError, NetboxError, type NetboxFieldErrors } from "./errors.js";
export { loadNetboxConfig, type NetboxConfig, NetboxConfigError, parseNetboxConfig } from "./config.js";
export { type MappedVm, type MappingResult, mapRecord, type UnmappableVm } from "./mapping.js";
export { loadRecords, type NetboxVmRecord, type RecordSelection } from "./records.js";
export { type RecordOutcome, type SyncOptions, type SyncReport, syncNetbox } from "./sync.js";
export { type DecommissionOptions, type DecommissionOutcome, type DecommissionReport, decommissionNetbox } from "./decommission.js";
export {
  type FaultRule as NetboxFaultRule,
  type NetboxSimAdmin,
  type NetboxSimulator,
  type NetboxSimulatorOptions,
  seedDemo as seedNetboxDemo,
  startNetboxSimulator,
} from "./sim/index.js";
