// ACLs, roles and groups: /access/acl, /access/roles[/{roleid}], /access/groups[/{groupid}].
import { PveApiError, type Router } from "../contract.js";
import { flag, type HandlerParams, list, str } from "../params.js";
import { delegationRefusal, paramErrorInLock, permModifyPrivileges } from "./delegation.js";
import { normalizePath } from "./evaluate.js";
import { isAclPath } from "../../pve/privileges.js";
import { BUILTIN_ROLES, isBuiltinRole, isPrivilege } from "./privileges.js";
import { USER_CFG_LOCK } from "./handlers-users.js";
import type { AccessControl } from "./service.js";
import type { AclEntry } from "./state.js";

function roleList(access: AccessControl) {
  const roles: Array<{ roleid: string; privs: string; special: 0 | 1 }> = [];
  for (const [roleid, privs] of Object.entries(BUILTIN_ROLES)) roles.push({ roleid, privs: [...privs].sort().join(","), special: 1 });
  for (const [roleid, r] of Object.entries(access.state.roles)) roles.push({ roleid, privs: [...r.privs].sort().join(","), special: 0 });
  return roles.sort((a, b) => a.roleid.localeCompare(b.roleid));
}

function parsePrivs(value: string[]): string[] {
  for (const p of value)
    if (!isPrivilege(p)) throw new PveApiError(400, "Parameter verification failed.", { privs: `invalid privilege name '${p}'` });
  return [...new Set(value)];
}

const ACL_UPDATE_FAILED = "ACL update failed";

/** The users, groups and tokens a PUT /access/acl names; each must exist unless entries are removed. */
function aclSubjects(access: AccessControl, params: HandlerParams, remove: boolean): Array<Pick<AclEntry, "type" | "ugid">> {
  const subjects: Array<Pick<AclEntry, "type" | "ugid">> = [];
  for (const ugid of list(params, "users")) {
    if (!remove && !access.state.users[ugid]) throw new PveApiError(500, `user '${ugid}' does not exist`);
    subjects.push({ type: "user", ugid });
  }
  for (const ugid of list(params, "groups")) {
    if (!remove && !access.state.groups[ugid]) throw new PveApiError(500, `group '${ugid}' does not exist`);
    subjects.push({ type: "group", ugid });
  }
  for (const ugid of list(params, "tokens")) {
    const [userid, tokenid] = ugid.split("!");
    if (!remove && !access.state.users[userid ?? ""]?.tokens[tokenid ?? ""]) {
      throw new PveApiError(500, `no such token '${tokenid}' for user '${userid}'`);
    }
    subjects.push({ type: "token", ugid });
  }
  return subjects;
}

export function registerAclHandlers(router: Router, access: AccessControl): void {
  router.add("GET", "/access/acl", (ctx) => {
    // Sys.Audit on /access shows every entry; otherwise only paths whose ACL the caller may change.
    const audit = ctx.hasPermission("/access", ["Sys.Audit"]);
    return access.state.acl
      .filter((e) => audit || ctx.hasPermission(e.path, permModifyPrivileges(normalizePath(e.path)), true))
      .map((e) => ({ path: e.path, type: e.type, ugid: e.ugid, roleid: e.roleid, propagate: e.propagate }));
  });

  router.add("PUT", "/access/acl", (ctx) => {
    if (!["users", "groups", "tokens"].some((k) => str(ctx.params, k))) {
      const why = "either 'users', 'groups' or 'tokens' is required.";
      throw new PveApiError(400, "Parameter verification failed.", { users: why, groups: why, tokens: why });
    }
    const path = normalizePath(str(ctx.params, "path") ?? "");
    const roles = list(ctx.params, "roles");
    const propagate = flag(ctx.params, "propagate") ?? 1;
    const remove = flag(ctx.params, "delete") === 1;
    // Entries on paths PVE no longer knows can still be removed.
    if (!remove && !isAclPath(path)) {
      throw new PveApiError(400, "Parameter verification failed.", { path: `invalid ACL path '${str(ctx.params, "path")}'` });
    }
    // Roles (as PVE, before the subjects) and subjects are all checked before anything
    // changes: PVE writes user.cfg only when every check passed.
    const held = access.privileges(ctx.auth, path);
    for (const roleid of roles) {
      if (!remove && !isBuiltinRole(roleid) && !access.state.roles[roleid]) throw new PveApiError(500, `role '${roleid}' does not exist`);
      const privs = access.evaluator.rolePrivileges(roleid);
      const refusal = delegationRefusal(held, { roleid, privs, propagate, remove });
      if (refusal) throw paramErrorInLock(ACL_UPDATE_FAILED, { role: refusal });
    }
    const subjects = aclSubjects(access, ctx.params, remove);
    for (const roleid of roles) {
      for (const s of subjects) {
        const same = (e: AclEntry) => normalizePath(e.path) === path && e.type === s.type && e.ugid === s.ugid && e.roleid === roleid;
        access.state.acl = access.state.acl.filter((e) => !same(e));
        if (!remove) access.state.acl.push({ path, type: s.type, ugid: s.ugid, roleid, propagate });
      }
    }
    return null;
  });

  router.add("GET", "/access/roles", () => roleList(access));

  router.add("GET", "/access/roles/{roleid}", (ctx) => {
    const roleid = str(ctx.params, "roleid") ?? "";
    const privs = BUILTIN_ROLES[roleid] ?? access.state.roles[roleid]?.privs;
    if (!privs) throw new PveApiError(500, `role '${roleid}' does not exist`);
    return Object.fromEntries([...privs].sort().map((p) => [p, 1]));
  });

  router.add("POST", "/access/roles", (ctx) => {
    const roleid = str(ctx.params, "roleid") ?? "";
    // PVE keeps the namespace of its built-in roles free for future ones.
    if (/^PVE/i.test(roleid)) {
      throw new PveApiError(400, "Parameter verification failed.", {
        roleid: "cannot use role ID starting with the (case-insensitive) 'PVE' namespace",
      });
    }
    if (isBuiltinRole(roleid) || access.state.roles[roleid]) {
      throw new PveApiError(500, `create role failed: ${USER_CFG_LOCK}role '${roleid}' already exists`);
    }
    access.state.roles[roleid] = { privs: parsePrivs(list(ctx.params, "privs")) };
    return null;
  });

  router.add("PUT", "/access/roles/{roleid}", (ctx) => {
    const roleid = str(ctx.params, "roleid") ?? "";
    if (isBuiltinRole(roleid)) throw new PveApiError(500, `auto-generated role '${roleid}' cannot be modified`);
    const role = access.state.roles[roleid];
    if (!role) throw new PveApiError(500, `role '${roleid}' does not exist`);
    if (ctx.params.privs !== undefined) {
      const privs = parsePrivs(list(ctx.params, "privs"));
      role.privs = flag(ctx.params, "append") === 1 ? [...new Set([...role.privs, ...privs])] : privs;
    }
    return null;
  });

  router.add("DELETE", "/access/roles/{roleid}", (ctx) => {
    const roleid = str(ctx.params, "roleid") ?? "";
    if (isBuiltinRole(roleid)) throw new PveApiError(500, `auto-generated role '${roleid}' cannot be deleted`);
    if (!access.state.roles[roleid]) throw new PveApiError(500, `role '${roleid}' does not exist`);
    delete access.state.roles[roleid];
    access.state.acl = access.state.acl.filter((e) => e.roleid !== roleid);
    return null;
  });

  const members = (groupid: string) =>
    Object.entries(access.state.users)
      .filter(([, u]) => u.groups.includes(groupid))
      .map(([id]) => id)
      .sort();

  router.add("GET", "/access/groups", (ctx) =>
    Object.entries(access.state.groups)
      .filter(([g]) => ctx.hasPermission(`/access/groups/${g}`, ["User.Modify", "Sys.Audit", "Group.Allocate"], true))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([groupid, g]) => ({ groupid, ...(g.comment ? { comment: g.comment } : {}), users: members(groupid).join(",") })),
  );

  router.add("POST", "/access/groups", (ctx) => {
    const groupid = str(ctx.params, "groupid") ?? "";
    if (access.state.groups[groupid]) throw new PveApiError(500, `create group failed: ${USER_CFG_LOCK}group '${groupid}' already exists`);
    const comment = str(ctx.params, "comment");
    access.state.groups[groupid] = comment !== undefined ? { comment } : {};
    return null;
  });

  const requireGroup = (groupid: string) => {
    const group = access.state.groups[groupid];
    if (!group) throw new PveApiError(500, `group '${groupid}' does not exist`);
    return group;
  };

  router.add("GET", "/access/groups/{groupid}", (ctx) => {
    const groupid = str(ctx.params, "groupid") ?? "";
    const group = requireGroup(groupid);
    return { ...(group.comment ? { comment: group.comment } : {}), members: members(groupid) };
  });

  router.add("PUT", "/access/groups/{groupid}", (ctx) => {
    const group = requireGroup(str(ctx.params, "groupid") ?? "");
    const comment = str(ctx.params, "comment");
    if (comment !== undefined) group.comment = comment;
    return null;
  });

  router.add("DELETE", "/access/groups/{groupid}", (ctx) => {
    const groupid = str(ctx.params, "groupid") ?? "";
    requireGroup(groupid);
    delete access.state.groups[groupid];
    for (const u of Object.values(access.state.users)) u.groups = u.groups.filter((g) => g !== groupid);
    access.state.acl = access.state.acl.filter((e) => !(e.type === "group" && e.ugid === groupid));
    return null;
  });
}
