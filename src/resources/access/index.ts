// The access kinds: roles, groups, users, tokens, ACL entries and pools as desired state
// (model, read, diff, steps, privileges, read-back, to-spec).

export { showExpire } from "./kinds.js";
export { accessLanded } from "./landed.js";
export * from "./model.js";
export { type AccessPlanOptions, planAccess } from "./plan.js";
export type { KindPlans } from "./plan-commented.js";
export { accessCallNeeds, accessReadNeeds } from "./privileges.js";
export { readAccess } from "./read.js";
export { accessToSpec } from "./to-spec.js";
