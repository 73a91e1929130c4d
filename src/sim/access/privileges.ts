// The simulator's privileges and built-in roles are PVE 9's, kept in src/pve/privileges.ts
// (shared with the spec validator); the old names stay for the sim's own imports.
export { BUILTIN_ROLES, isBuiltinRole, isPrivilege, PVE_PRIVILEGES as ALL_PRIVILEGES } from "../../pve/privileges.js";
