// The inventory: configuration, collection, building and rendering (generate.ts is the entry point).
export { buildInventory, safeGroupName } from "./build.js";
export { collectGuests, type InventoryApi } from "./collect.js";
export { type InventoryConfig, inventoryConfigSchema, parseInventoryConfig } from "./config.js";
export { applyConstructed, type ConstructedOptions } from "./constructed.js";
export { InventoryError } from "./errors.js";
export { type GenerateOptions, generateInventory, type InventorySource } from "./generate.js";
export { type InventoryFile, loadInventoryConfig, readInventoryFile } from "./file.js";
export { renderGraph } from "./graph.js";
export { hostFacts } from "./host-facts.js";
export { assignHostnames } from "./hostnames.js";
export type { AnsibleInventory, FactsLevel, InventoryGuest } from "./model.js";
export { netboxFacts } from "./netbox.js";
export { type PluginFactsOptions, pluginConfigValue, pluginFactName, pluginHostVars } from "./plugin-facts.js";
