// The inventory configuration's defaults, and its check for the common case without the schema
// library. Ansible starts `pvectl inventory` afresh for every run, and most configurations are a
// few scalar keys (`facts: basic`, `cacheTtl: 300`) or the community plugin's file with its
// connection settings and flags only: loading zod to check them cost more start-up time than
// the inventory's API calls. quickInventoryConfig() accepts exactly such configurations and
// returns what the schema (config.ts) returns for them; anything else (filters, compose,
// netbox, keyed groups, a wrong type or value ...) is left to the schema, which also words
// every problem. test/inventory/config-quick.property.test.ts holds the two to the same result.
import type { InventoryConfig } from "./config.js";

/** Every default of the schema; a function, so that no caller shares (and mutates) another's arrays. */
export function inventoryDefaults() {
  return {
    groupPrefix: "proxmox_",
    factsPrefix: "proxmox_",
    facts: "basic" as "basic" | "config" | "agent" | "plugin",
    placementFacts: true,
    nodesGroup: false,
    nodesAnsibleHost: false,
    qemuExtendedStatuses: false,
    exactSnapshots: false,
    concurrency: 8,
    includeTemplates: false,
    allowEmpty: false,
    cacheTtl: 0,
    filters: {},
    keyedGroups: [{ key: "tag", prefix: "tag", separator: "_" }],
    ansibleHost: ["agent", "ipconfig"] as Array<"agent" | "ipconfig" | "netbox">,
    compose: {},
  };
}

/** The defaults of the constructed options (compose, groups, keyed_groups, filters). */
export function constructedDefaults() {
  return { compose: {}, groups: {}, keyed_groups: [], filters: [], strict: false, leading_separator: true };
}

const FACTS = new Set(["basic", "config", "agent", "plugin"]);
const BOOLEANS = new Set([
  "placementFacts",
  "nodesGroup",
  "nodesAnsibleHost",
  "qemuExtendedStatuses",
  "exactSnapshots",
  "includeTemplates",
  "allowEmpty",
]);
const STRINGS = new Set(["groupPrefix", "factsPrefix", "cacheDir"]);

const isInteger = (value: unknown, min: number, max: number): boolean =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
const isEmpty = (value: unknown): boolean =>
  Array.isArray(value) ? value.length === 0 : typeof value === "object" && value !== null && Object.keys(value).length === 0;

/** Whether `key: value` is one the quick check can decide (and is valid). */
function quickValue(key: string, value: unknown): boolean {
  if (BOOLEANS.has(key)) return typeof value === "boolean";
  if (STRINGS.has(key)) return typeof value === "string";
  switch (key) {
    case "facts":
      return typeof value === "string" && FACTS.has(value);
    case "concurrency":
      return isInteger(value, 1, 64);
    case "cacheTtl":
      return isInteger(value, 0, Number.MAX_SAFE_INTEGER);
    case "keyedGroups":
      return Array.isArray(value) && value.length === 0;
    case "ansibleHost":
      // netbox needs a netbox section: the schema words that.
      return Array.isArray(value) && value.every((source) => source === "agent" || source === "ipconfig");
    case "constructed":
      return quickConstructed(value);
    default:
      return false;
  }
}

/** Constructed options with no expression at all: the plugin's file without compose, groups, keyed_groups or filters. */
function quickConstructed(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const [key, part] of Object.entries(value)) {
    if (key === "strict" || key === "leading_separator") {
      if (typeof part !== "boolean") return false;
    } else if (key === "compose" || key === "groups") {
      if (!isEmpty(part) || Array.isArray(part)) return false;
    } else if (key === "keyed_groups" || key === "filters") {
      if (!Array.isArray(part) || part.length > 0) return false;
    } else return false;
  }
  return true;
}

/** The checked configuration when `raw` is in the quick check's reach, else undefined (use the schema). */
export function quickInventoryConfig(raw: unknown): InventoryConfig | undefined {
  const given = raw ?? {};
  if (typeof given !== "object" || Array.isArray(given)) return undefined;
  const entries = Object.entries(given);
  for (const [key, value] of entries) if (!quickValue(key, value)) return undefined;
  const config: Record<string, unknown> = { ...inventoryDefaults() };
  for (const [key, value] of entries) {
    config[key] = key === "constructed" ? { ...constructedDefaults(), ...(value as object) } : value;
  }
  // The schema's cross-field rule; its message is the schema's to give.
  if (config.qemuExtendedStatuses === true && config.facts !== "plugin") return undefined;
  return config as InventoryConfig;
}
