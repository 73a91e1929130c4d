// The `access:` spec section that grants exactly what `access needs` found (docs/access.md):
// one custom role per kind of path, so no privilege lands where it means something else
// (VM.Allocate granted on / would reach every guest; Sys.Audit on a pool is meaningless), and
// one ACL entry per path, for one subject (a token, a user or a group).
import type { PathNeeds } from "./access-needs.js";

export type AclSubject = { token: string } | { user: string } | { group: string };

export interface AccessSpecRole {
  id: string;
  privileges: string[];
}

export interface AccessSpecAcl {
  path: string;
  role: string;
  token?: string;
  user?: string;
  group?: string;
  propagate: boolean;
}

export interface AccessSpec {
  roles: AccessSpecRole[];
  acls: AccessSpecAcl[];
}

/** Which role a path's grant goes into, by the top of the path. */
function roleSuffix(path: string): string {
  if (path.startsWith("/storage")) return "Storage";
  if (path.startsWith("/sdn")) return "Network";
  if (path.startsWith("/vms") || path.startsWith("/pool")) return "";
  return "Cluster";
}

/**
 * Propagation only where the grant must reach paths below: /vms (guests whose vmid is not known
 * yet). Every other path is checked as itself: a guest, pool, storage, bridge, and / (Sys.Modify
 * for backup jobs or `startup`, which must not reach every node's settings below it); pool
 * members inherit the pool's roles whatever `propagate` says.
 */
function propagates(path: string): boolean {
  return path === "/vms";
}

/** `deploy@pve!ci` -> `deploy@pve`. */
export function userOfToken(token: string): string {
  return token.split("!")[0]!;
}

export function accessSpec(paths: PathNeeds[], role: string, subject: AclSubject): AccessSpec {
  const roles = new Map<string, Set<string>>();
  const acls: AccessSpecAcl[] = [];
  // A role is granted on every path of its kind: a privilege one path needs exactly also meets
  // another path's `any` need, so that need adds its preferred privilege only when no
  // alternative is in the role already (exact ones first).
  for (const exactFirst of [true, false]) {
    for (const { path, privileges } of paths) {
      const id = `${role}${roleSuffix(path)}`;
      const set = roles.get(id) ?? new Set<string>();
      roles.set(id, set);
      for (const p of privileges) {
        if ((p.anyOf === undefined) !== exactFirst) continue;
        if (p.anyOf === undefined || !p.anyOf.some((alt) => set.has(alt))) set.add(p.privilege);
      }
    }
  }
  for (const { path, privileges } of paths) {
    if (privileges.length === 0) continue;
    const id = `${role}${roleSuffix(path)}`;
    const propagate = propagates(path);
    // A privilege-separated token holds what both it and its user hold: the user gets the same grants.
    if ("token" in subject) acls.push({ path, role: id, user: userOfToken(subject.token), propagate });
    acls.push({ path, role: id, ...subject, propagate });
  }
  return {
    roles: [...roles.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, set]) => ({ id, privileges: [...set].sort() })),
    acls,
  };
}
