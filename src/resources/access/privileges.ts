// What PVE checks for access calls beyond what the schema's `perm` expressions say
// (pve-access-control RPCEnvironment.pm check_api2_permissions, API2/ACL.pm, API2/User.pm):
// - PUT /access/acl (`perm-modify`): Permissions.Modify on the path, or the allocate privilege
//   of a single guest, storage or pool; without Permissions.Modify the caller may only grant
//   (or take back) roles whose every privilege it holds there itself.
// - users (`userid-param`, `userid-group`): Realm.AllocateUser on the user's realm, User.Modify
//   on /access/groups or on each group the request names.
// - tokens (`or` of `userid-param self` and `userid-group User.Modify`): a user logged in as
//   itself manages its own tokens without any privilege; anyone else, a token of that same
//   user included (its id is not the user's), needs User.Modify on /access/groups (or on a
//   group of that user). The need says whom PVE waives it for (`unlessCaller`).
// - a token's secret reset deletes the token, and its ACL entries with it (AccessControl.pm
//   drops entries of tokens that no longer exist): they are granted again, so all of them
//   must be listed, which GET /access/acl does only with Sys.Audit on /access.
import type { ObjectIntent } from "../../plan/intent.js";
import type { ParamValue, PrivilegeNeed } from "../../plan/types.js";
import { splitList } from "../../pve/index.js";
import type { DesiredAccess } from "./model.js";

function allocatePrivilegeOf(path: string): string | undefined {
  if (/^\/vms\/.+/.test(path)) return "VM.Allocate";
  if (/^\/storage\/.+/.test(path)) return "Datastore.Allocate";
  if (/^\/pool\/.+/.test(path)) return "Pool.Allocate";
  return undefined;
}

function aclNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  const path = String(params.path ?? "/");
  const alloc = allocatePrivilegeOf(path);
  const needs: PrivilegeNeed[] = [{ path, privilege: "Permissions.Modify", ...(alloc ? { anyOf: ["Permissions.Modify", alloc] } : {}) }];
  for (const privilege of intent.grants ?? []) needs.push({ path, privilege, anyOf: [privilege, "Permissions.Modify"] });
  return needs;
}

/** User.Modify on every group named, or on /access/groups (which covers them all). */
function groupNeeds(groups: string[]): PrivilegeNeed[] {
  if (groups.length === 0) return [{ path: "/access/groups", privilege: "User.Modify" }];
  return groups.map((g) => ({
    path: `/access/groups/${g}`,
    privilege: "User.Modify",
    orOn: [{ path: "/access/groups", privilege: "User.Modify" }],
  }));
}

function userNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  const realm = intent.key.split("@")[1] ?? "";
  const groups = groupNeeds(splitList(String(params.groups ?? "")));
  if (intent.op === "object-update") return groups;
  return [{ path: `/access/realm/${realm}`, privilege: "Realm.AllocateUser" }, ...groups];
}

/**
 * The one user whose tokens are all the section declares (no users, groups or ACL entries):
 * PVE lists a user to itself with its tokens, so that user needs no privilege to read them.
 */
function ownTokensOnly(desired: DesiredAccess): string | undefined {
  if (desired.users !== undefined || desired.groups !== undefined || desired.acls !== undefined) return undefined;
  const owners = new Set((desired.tokens ?? []).map((t) => t.user));
  return owners.size === 1 ? [...owners][0] : undefined;
}

/**
 * What planning must be able to see: PVE lists only the ACL entries, users and groups the
 * caller may audit (Sys.Audit on /access; on /access/groups for users and groups), so with less
 * a listed object would look missing and its create fail. Pools are listed per Pool.Audit,
 * which creating them (Pool.Allocate) does not imply: checked on each pool named.
 */
export function accessReadNeeds(desired: DesiredAccess): PrivilegeNeed[] {
  const needs: PrivilegeNeed[] = [];
  if (desired.acls !== undefined || desired.roles !== undefined) needs.push({ path: "/access", privilege: "Sys.Audit" });
  if (desired.users !== undefined || desired.groups !== undefined || desired.tokens !== undefined || desired.acls !== undefined) {
    const self = ownTokensOnly(desired);
    needs.push({
      path: "/access/groups",
      privilege: "Sys.Audit",
      anyOf: ["Sys.Audit", "User.Modify"],
      ...(self !== undefined ? { unlessCaller: self } : {}),
    });
  }
  for (const pool of desired.pools ?? []) needs.push({ path: `/pool/${pool.id}`, privilege: "Pool.Audit" });
  return needs;
}

export function accessCallNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  switch (intent.object) {
    case "access-acl":
      return aclNeeds(intent, params);
    case "access-user":
      return userNeeds(intent, params);
    case "access-token": {
      const orOn = (intent.ownerGroups ?? []).map((g) => ({ path: `/access/groups/${g}`, privilege: "User.Modify" }));
      const modify = {
        path: "/access/groups",
        privilege: "User.Modify",
        unlessCaller: intent.key.slice(0, intent.key.lastIndexOf("!")),
        ...(orOn.length > 0 ? { orOn } : {}),
      };
      // PVE lists only the ACL entries a caller may audit or change: one it did not see would be lost with the token.
      return intent.regrantsAcl ? [modify, { path: "/access", privilege: "Sys.Audit" }] : [modify];
    }
    default:
      // Roles, groups and pools: the schema's own `perm` check says it all.
      return [];
  }
}
