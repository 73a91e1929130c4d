// The NetBox API simulator as a use case starts it (`netbox sim`, `sim --netbox`, the demo): on
// its own module, so that a NetBox command does not load the PVE simulator with it.
export { type NetboxSimulator, type NetboxSimulatorOptions, startNetboxSimulator } from "../../netbox/sim/index.js";
