// Which privileges an identity holds on a path (pve-access-control AccessControl.pm `roles`
// and RPCEnvironment.pm `permissions`): walk from "/" to the path; at each level the token's
// (or user's) own entries win over group entries and replace what was inherited; ancestors
// count only when they propagate; NoAccess overrides everything. Pool ACLs reach the pool's
// guests and storages. A privilege-separated token gets its own ACLs intersected with its user's.
import type { AuthIdentity } from "../contract.js";
import { ALL_PRIVILEGES, BUILTIN_ROLES } from "./privileges.js";
import type { AccessState } from "./state.js";

/** privilege -> propagate flag (1 when some role granting it propagates). */
export type PrivilegeSet = Map<string, 0 | 1>;

/** Pool membership, provided by the guest model. */
export interface PoolMembership {
  poolOfGuest(vmid: number): string | undefined;
  poolOfStorage(storage: string): string | undefined;
}

const NORMAL_PATH = /^(?:\/|(?:\/[^/]+)+)$/;

export function normalizePath(path: string): string {
  if (NORMAL_PATH.test(path)) return path;
  const parts = path.split("/").filter(Boolean);
  return `/${parts.join("/")}`;
}

/** `/vms/<vmid>` or `/storage/<id>`: the paths pools reach. */
const MEMBER_PATH = /^\/(vms|storage)\/([^/]+)$/;

/** The pool of the guest or storage a MEMBER_PATH match names, if any. */
function poolOfMember(match: RegExpExecArray, membership: PoolMembership | undefined): string | undefined {
  if (!membership) return undefined;
  const id = match[2] as string;
  return match[1] === "vms" ? membership.poolOfGuest(Number(id)) : membership.poolOfStorage(id);
}

function levels(path: string): string[] {
  const parts = normalizePath(path).split("/").filter(Boolean);
  const out = ["/"];
  for (let i = 1; i <= parts.length; i++) out.push(`/${parts.slice(0, i).join("/")}`);
  return out;
}

type RoleMap = Map<string, 0 | 1>;

/** root@pam holds everything everywhere; built once (callers only read privilege sets). */
const ROOT_PRIVILEGES: PrivilegeSet = new Map(ALL_PRIVILEGES.map((p) => [p, 1]));

export class PermissionEvaluator {
  constructor(
    private readonly state: () => AccessState,
    private readonly pools: () => PoolMembership | undefined,
  ) {}

  rolePrivileges(roleid: string): readonly string[] {
    return BUILTIN_ROLES[roleid] ?? this.state().roles[roleid]?.privs ?? [];
  }

  /** Roles of a user id or a full token id on one path, before pools. */
  private aclRoles(ugid: string, isToken: boolean, path: string): RoleMap {
    const state = this.state();
    const userGroups = isToken ? [] : (state.users[ugid]?.groups ?? []);
    let roles: RoleMap = new Map();
    const target = normalizePath(path);
    for (const level of levels(path)) {
      const final = level === target;
      const entries = state.acl.filter((e) => normalizePath(e.path) === level);
      const own = entries.filter((e) => e.type === (isToken ? "token" : "user") && e.ugid === ugid);
      const ownNew: RoleMap = new Map();
      for (const e of own) if (final || e.propagate) ownNew.set(e.roleid, e.propagate);
      if (ownNew.size > 0) {
        roles = ownNew;
        continue;
      }
      if (isToken) continue;
      const groupNew: RoleMap = new Map();
      for (const e of entries) {
        if (e.type !== "group" || !userGroups.includes(e.ugid)) continue;
        if (final || e.propagate) groupNew.set(e.roleid, Math.max(groupNew.get(e.roleid) ?? 0, e.propagate) as 0 | 1);
      }
      if (groupNew.size > 0) roles = groupNew;
    }
    if (roles.has("NoAccess")) return new Map([["NoAccess", roles.get("NoAccess") ?? 0]]);
    return roles;
  }

  /** Roles including those inherited from the pool a guest or storage belongs to. */
  private roles(ugid: string, isToken: boolean, path: string): RoleMap {
    const regular = this.aclRoles(ugid, isToken, path);
    const pool = this.poolOf(path);
    if (!pool || regular.has("NoAccess")) return regular;
    const poolRoles = this.aclRoles(ugid, isToken, `/pool/${pool}`);
    if (poolRoles.has("NoAccess")) return new Map([["NoAccess", 0]]);
    const merged: RoleMap = new Map(regular);
    for (const role of poolRoles.keys()) if (!merged.has(role)) merged.set(role, 0);
    return merged;
  }

  private poolOf(path: string): string | undefined {
    const m = MEMBER_PATH.exec(normalizePath(path));
    return m ? poolOfMember(m, this.pools()) : undefined;
  }

  private privilegesOfRoles(roles: RoleMap): PrivilegeSet {
    const out: PrivilegeSet = new Map();
    for (const [role, propagate] of roles) {
      for (const priv of this.rolePrivileges(role)) out.set(priv, Math.max(out.get(priv) ?? 0, propagate) as 0 | 1);
    }
    return out;
  }

  private userPrivileges(userid: string, path: string): PrivilegeSet {
    if (userid === "root@pam") return ROOT_PRIVILEGES;
    const user = this.state().users[userid];
    if (!user) return new Map();
    return this.privilegesOfRoles(this.roles(userid, false, path));
  }

  /** The privileges `auth` holds on `path`. */
  privileges(auth: AuthIdentity, path: string): PrivilegeSet {
    const userPrivs = this.userPrivileges(auth.userid, path);
    if (!auth.tokenid) return userPrivs;
    const token = this.state().users[auth.userid]?.tokens[auth.tokenid];
    if (!token) return new Map();
    if (!token.privsep) return userPrivs;
    const tokenPrivs = this.privilegesOfRoles(this.roles(`${auth.userid}!${auth.tokenid}`, true, path));
    const out: PrivilegeSet = new Map();
    for (const [priv, propagate] of tokenPrivs) {
      const fromUser = userPrivs.get(priv);
      if (fromUser !== undefined) out.set(priv, (propagate && fromUser ? 1 : 0) as 0 | 1);
    }
    return out;
  }

  /**
   * The privilege lookup of one request. A listing checks one path per guest (10,000 walks
   * over the ACL for /cluster/resources); guests without an ACL entry of their own hold
   * exactly what every such guest of the same pool (or of no pool) holds, so the walk is done
   * once per pool.
   */
  forRequest(auth: AuthIdentity): (path: string) => PrivilegeSet {
    if (auth.userid === "root@pam" && !auth.tokenid) return () => ROOT_PRIVILEGES;
    const aclPaths = new Set(this.state().acl.map((e) => normalizePath(e.path)));
    const membership = this.pools();
    const memo = new Map<string, PrivilegeSet>();
    return (path) => {
      const target = normalizePath(path);
      const member = MEMBER_PATH.exec(target);
      let key = target;
      if (member && !aclPaths.has(target)) key = `${member[1]}\0${poolOfMember(member, membership) ?? ""}`;
      let held = memo.get(key);
      if (!held) {
        held = this.privileges(auth, target);
        memo.set(key, held);
      }
      return held;
    };
  }

  has(auth: AuthIdentity, path: string, privs: string[], any = false): boolean {
    return missingFrom(this.privileges(auth, path), privs, any) === undefined;
  }

  /** The first privilege of `privs` that is missing (all-mode), or all joined with "|" (any-mode); undefined when granted. */
  missing(auth: AuthIdentity, path: string, privs: string[], any = false): string | undefined {
    return missingFrom(this.privileges(auth, path), privs, any);
  }
}

/** The first privilege of `privs` not in `held` (all-mode), or all joined with "|" (any-mode); undefined when held. */
export function missingFrom(held: PrivilegeSet, privs: string[], any = false): string | undefined {
  if (any) return privs.some((p) => held.has(p)) ? undefined : privs.join("|");
  return privs.find((p) => !held.has(p));
}
