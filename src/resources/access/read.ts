// The cluster's access objects in the diff's form, reading only what the spec manages (and
// what deciding about it needs: the ACL for roles in use, the subjects for ACL ownership).
import {
  type ApiReader,
  getAcl,
  getGroups,
  getPoolMemberCount,
  getPools,
  getRoles,
  getUsersFull,
  type UserEntry,
} from "../../api/endpoints/index.js";
import { splitList } from "../../pve/index.js";
import { splitComment } from "../object-marker.js";
import type { DesiredAccess, LiveAccess, LiveAcl, LiveToken, LiveUser } from "./model.js";

const flag = (value: boolean | 0 | 1 | undefined, fallback: boolean) => (value === undefined ? fallback : value === true || value === 1);

function commented(comment: string | undefined) {
  const split = splitComment(comment);
  return { ...(split.text !== undefined ? { comment: split.text } : {}), marked: split.marked };
}

function liveUser(u: UserEntry): LiveUser {
  return {
    id: u.userid,
    enable: flag(u.enable, true),
    expire: u.expire ?? 0,
    groups: splitList(u.groups ?? "").sort(),
    ...commented(u.comment),
  };
}

function liveTokens(u: UserEntry): LiveToken[] {
  return (u.tokens ?? []).map((t) => ({
    user: u.userid,
    name: t.tokenid,
    privsep: flag(t.privsep, true),
    expire: t.expire ?? 0,
    ...commented(t.comment),
  }));
}

/**
 * Which lists must be read to plan `desired`; `tokenAcls`: a token may be made anew (its
 * secret reset), and its ACL entries, with their roles, are granted again (token-reset.ts).
 */
function needs(desired: DesiredAccess, tokenAcls: boolean) {
  const acls = desired.acls !== undefined || desired.roles !== undefined || tokenAcls;
  return {
    roles: desired.roles !== undefined || desired.acls !== undefined || tokenAcls,
    acls,
    groups: desired.groups !== undefined || desired.acls !== undefined || desired.users !== undefined,
    users: desired.users !== undefined || desired.tokens !== undefined || desired.acls !== undefined,
    pools: desired.pools !== undefined,
  };
}

export async function readAccess(api: ApiReader, desired: DesiredAccess, options: { tokenAcls?: boolean } = {}): Promise<LiveAccess> {
  const want = needs(desired, options.tokenAcls ?? false);
  const live: LiveAccess = { roles: [], groups: [], users: [], tokens: [], acls: [], pools: [] };
  if (want.roles)
    live.roles = (await getRoles(api)).map((r) => ({
      id: r.roleid,
      privileges: splitList(r.privs ?? "").sort(),
      builtin: flag(r.special, false),
    }));
  if (want.acls) {
    live.acls = (await getAcl(api)).map(
      (a): LiveAcl => ({ path: a.path, role: a.roleid, type: a.type, ugid: a.ugid, propagate: flag(a.propagate, true) }),
    );
  }
  if (want.groups) live.groups = (await getGroups(api)).map((g) => ({ id: g.groupid, ...commented(g.comment) }));
  if (want.users) {
    const users = await getUsersFull(api);
    live.users = users.map(liveUser);
    live.tokens = users.flatMap(liveTokens);
  }
  if (want.pools) {
    // Members matter only for deleting a pool, which only pvectl's pools can be.
    for (const p of await getPools(api)) {
      const own = commented(p.comment);
      live.pools.push({ id: p.poolid, members: own.marked ? await getPoolMemberCount(api, p.poolid) : 0, ...own });
    }
  }
  return live;
}
