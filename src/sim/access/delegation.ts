// Who may hand out which role (pve-access-control API2/ACL.pm update_acl and
// RPCEnvironment.pm check_perm_modify). `perm-modify` admits Permissions.Modify on the path,
// or the allocate privilege of a single guest, storage or pool (VM.Allocate on /vms/100 ...).
// Without Permissions.Modify itself, a caller may only add or remove roles whose every
// privilege it holds on that path (propagated, when the new entry propagates), and never
// NoAccess: otherwise a VM admin could grant itself Administrator on its own guest.
import { PveApiError } from "../contract.js";
import type { PrivilegeSet } from "./evaluate.js";

/** The privileges of which any one lets a caller change the ACL of `path`. */
export function permModifyPrivileges(path: string): string[] {
  const privs = ["Permissions.Modify"];
  if (/^\/storage\/.+/.test(path)) privs.push("Datastore.Allocate");
  else if (/^\/vms\/.+/.test(path)) privs.push("VM.Allocate");
  else if (/^\/pool\/.+/.test(path)) privs.push("Pool.Allocate");
  return privs;
}

export interface RoleChange {
  roleid: string;
  privs: readonly string[];
  propagate: 0 | 1;
  remove: boolean;
}

/** Why `held` (the caller's privileges on the path) may not make this change; undefined when it may. */
export function delegationRefusal(held: PrivilegeSet, change: RoleChange): string | undefined {
  if (held.has("Permissions.Modify")) return undefined;
  const verb = change.remove ? "remove" : "add";
  for (const priv of change.privs) {
    const propagates = held.get(priv);
    if (propagates === undefined)
      return `Cannot ${verb} role '${change.roleid}' - requires 'Permissions.Modify' or superset of privileges.`;
    // Only adding a propagating entry needs the caller's own privilege to propagate.
    if (change.propagate && !propagates && !change.remove) {
      return `Cannot ${verb} role '${change.roleid}' with propagation - requires 'Permissions.Modify' or propagated superset of privileges.`;
    }
  }
  if (change.roleid === "NoAccess") return `Cannot ${verb} role '${change.roleid}' - requires 'Permissions.Modify'`;
  return undefined;
}

/**
 * A parameter error raised while PVE holds the user.cfg lock: lock_user_config prefixes it and
 * turns it into a plain 500 whose text is the stringified 400 (status, message, then the
 * per-parameter lines).
 */
export function paramErrorInLock(operation: string, errors: Record<string, string>): PveApiError {
  const lines = Object.entries(errors).map(([param, why]) => `${param}: ${why}\n`);
  return new PveApiError(500, `${operation}: 400 Parameter verification failed.\n${lines.join("")}`);
}
