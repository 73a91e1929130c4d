// The cluster's access objects in the spec's shape (`pvectl import --access`, `pvectl show`):
// everything except PVE's built-in roles and root@pam, and never a secret (PVE does not keep
// token secrets readable; pvectl does not write secretFile for tokens that exist). Objects
// without pvectl's marker are written with `adopt: true`, so a plan of the written spec
// against the same cluster only adds the marker.
import type { LiveAccess } from "./model.js";
import { ROOT_USER } from "./model.js";

type Raw = Record<string, unknown>;

/** A date when the expiry is a whole UTC day (as the spec writes it), else the seconds. */
function expireValue(seconds: number): string | number {
  if (seconds === 0) return 0;
  return seconds % 86_400 === 0 ? new Date(seconds * 1000).toISOString().slice(0, 10) : seconds;
}

function owned(marked: boolean, comment: string | undefined): Raw {
  return { ...(comment !== undefined ? { comment } : {}), ...(marked ? {} : { adopt: true }) };
}

export function accessToSpec(live: LiveAccess): Raw {
  const subject = (type: string, ugid: string) =>
    type === "token" ? { token: ugid } : type === "group" ? { group: ugid } : { user: ugid };
  return {
    roles: live.roles.filter((r) => !r.builtin).map((r) => ({ id: r.id, privileges: r.privileges })),
    groups: live.groups.map((g) => ({ id: g.id, ...owned(g.marked, g.comment) })),
    users: live.users
      .filter((u) => u.id !== ROOT_USER)
      .map((u) => ({ id: u.id, groups: u.groups, enable: u.enable, expire: expireValue(u.expire), ...owned(u.marked, u.comment) })),
    tokens: live.tokens.map((t) => ({
      user: t.user,
      name: t.name,
      privsep: t.privsep,
      expire: expireValue(t.expire),
      ...owned(t.marked, t.comment),
    })),
    acls: live.acls.map((a) => ({ path: a.path, role: a.role, ...subject(a.type, a.ugid), propagate: a.propagate })),
    pools: live.pools.map((p) => ({ id: p.id, ...owned(p.marked, p.comment) })),
  };
}
