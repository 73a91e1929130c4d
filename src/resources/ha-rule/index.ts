// The HA-rule family: PVE 9's HA rules as desired state (resources/objects.ts registers HA_RULES).
export { HA_RULES } from "./family.js";
export type { HaRuleSpec } from "./spec-normalize.js";
