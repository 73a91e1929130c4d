// NetBox itself: its typed client and the NetBox simulator. What pvectl makes of NetBox's
// records lives in sources/netbox/ (config, mapping, records) and app/netbox/ (sync, decommission).
export {
  authorizationHeader,
  NetboxClient,
  type Filters as NetboxFilters,
  type NetboxClientOptions,
  type NetboxEndpoints,
  type NetboxPath,
} from "./client.js";
export { NetboxConnectionError, NetboxError, type NetboxFieldErrors } from "./errors.js";
export {
  type FaultRule as NetboxFaultRule,
  type NetboxSimAdmin,
  type NetboxSimulator,
  type NetboxSimulatorOptions,
  seedDemo as seedNetboxDemo,
  startNetboxSimulator,
} from "./sim/index.js";
