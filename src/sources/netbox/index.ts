// NetBox as a source of desired state: the sync config, the records it selects and each
// record mapped to a VM spec.
export { loadNetboxConfig, type NetboxConfig, NetboxConfigError, parseNetboxConfig } from "./config.js";
export { type MappedVm, type MappingResult, mapRecord, type UnmappableVm } from "./mapping.js";
export { loadRecords, type NetboxVmRecord, type RecordSelection } from "./records.js";
export { recordSelection, type SelectionFlags, SelectionOutsideConfig } from "./selection.js";
