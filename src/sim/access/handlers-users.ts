// Users and API tokens: /access/users, /access/users/{userid}, /access/users/{userid}/token/...
import { PveApiError, type Router } from "../contract.js";
import { flag, int, list, str } from "../params.js";
import type { SeededRandom } from "../random.js";
import type { AccessControl } from "./service.js";
import { hashSecret, type UserRecord } from "./state.js";

/** Prefix of errors raised while PVE holds the user.cfg lock (as recorded from real servers). */
export const USER_CFG_LOCK = "error during cfs-locked 'file-user_cfg' operation: ";

const USER_FIELDS = ["firstname", "lastname", "email", "comment", "keys"] as const;

function requireUser(access: AccessControl, userid: string): UserRecord {
  const user = access.state.users[userid];
  if (!user) throw new PveApiError(500, `no such user ('${userid}')`);
  return user;
}

function requireGroups(access: AccessControl, groups: string[]): void {
  for (const g of groups) if (!access.state.groups[g]) throw new PveApiError(500, `no such group '${g}'`);
}

function tokenInfo(t: { privsep: 0 | 1; expire: number; comment?: string }) {
  return { privsep: t.privsep, expire: t.expire, ...(t.comment !== undefined ? { comment: t.comment } : {}) };
}

function userSummary(userid: string, user: UserRecord, realmType: string | undefined, full: boolean) {
  const out: Record<string, unknown> = { userid, enable: user.enable, expire: user.expire };
  for (const f of USER_FIELDS) if (user[f] !== undefined) out[f] = user[f];
  if (realmType) out["realm-type"] = realmType;
  if (full) {
    out.groups = user.groups.join(",");
    out.tokens = Object.entries(user.tokens).map(([tokenid, t]) => ({ tokenid, ...tokenInfo(t) }));
  }
  return out;
}

export function registerUserHandlers(router: Router, access: AccessControl, random: SeededRandom): void {
  router.add("GET", "/access/users", (ctx) => {
    const enabled = flag(ctx.params, "enabled");
    const full = flag(ctx.params, "full") === 1;
    const privs = ["User.Modify", "Sys.Audit"];
    const seeAll = ctx.hasPermission("/access/groups", privs, true);
    return Object.entries(access.state.users)
      .filter(([userid, user]) => {
        if (enabled !== undefined && user.enable !== enabled) return false;
        if (seeAll || userid === ctx.auth.userid) return true;
        return user.groups.some((g) => ctx.hasPermission(`/access/groups/${g}`, privs, true));
      })
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([userid, user]) => userSummary(userid, user, access.state.realms[userid.split("@")[1] ?? ""]?.type, full));
  });

  router.add("POST", "/access/users", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    const realm = userid.split("@")[1] ?? "";
    const failed = (why: string) => new PveApiError(500, `create user failed: ${USER_CFG_LOCK}${why}`);
    if (!access.state.realms[realm]) throw failed(`domain '${realm}' does not exist`);
    if (access.state.users[userid]) throw failed(`user '${userid}' already exists`);
    const groups = list(ctx.params, "groups");
    requireGroups(access, groups);
    const user: UserRecord = { enable: flag(ctx.params, "enable") ?? 1, expire: int(ctx.params, "expire") ?? 0, groups, tokens: {} };
    for (const f of USER_FIELDS) {
      const v = str(ctx.params, f);
      if (v !== undefined) user[f] = v;
    }
    const password = str(ctx.params, "password");
    if (password !== undefined) user.passwordHash = hashSecret(userid, password);
    access.state.users[userid] = user;
    return null;
  });

  router.add("GET", "/access/users/{userid}", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    const user = requireUser(access, userid);
    const out: Record<string, unknown> = { enable: user.enable, expire: user.expire, groups: [...user.groups] };
    for (const f of USER_FIELDS) if (user[f] !== undefined) out[f] = user[f];
    out.tokens = Object.fromEntries(Object.entries(user.tokens).map(([id, t]) => [id, tokenInfo(t)]));
    return out;
  });

  router.add("PUT", "/access/users/{userid}", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    const user = requireUser(access, userid);
    if (ctx.params.groups !== undefined) {
      const groups = list(ctx.params, "groups");
      requireGroups(access, groups);
      user.groups = flag(ctx.params, "append") === 1 ? [...new Set([...user.groups, ...groups])] : groups;
    }
    const enable = flag(ctx.params, "enable");
    if (enable !== undefined) user.enable = enable;
    const expire = int(ctx.params, "expire");
    if (expire !== undefined) user.expire = expire;
    for (const f of USER_FIELDS) {
      const v = str(ctx.params, f);
      if (v !== undefined) user[f] = v;
    }
    return null;
  });

  router.add("DELETE", "/access/users/{userid}", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    requireUser(access, userid);
    delete access.state.users[userid];
    access.state.acl = access.state.acl.filter(
      (e) => !(e.type === "user" && e.ugid === userid) && !(e.type === "token" && e.ugid.startsWith(`${userid}!`)),
    );
    return null;
  });

  router.add("GET", "/access/users/{userid}/token", (ctx) => {
    const user = requireUser(access, str(ctx.params, "userid") ?? "");
    return Object.entries(user.tokens).map(([tokenid, t]) => ({ tokenid, ...tokenInfo(t) }));
  });

  const requireToken = (userid: string, tokenid: string) => {
    const token = requireUser(access, userid).tokens[tokenid];
    if (!token) throw new PveApiError(500, `no such token '${tokenid}' for user '${userid}'`);
    return token;
  };

  router.add("GET", "/access/users/{userid}/token/{tokenid}", (ctx) =>
    tokenInfo(requireToken(str(ctx.params, "userid") ?? "", str(ctx.params, "tokenid") ?? "")),
  );

  router.add("POST", "/access/users/{userid}/token/{tokenid}", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    const tokenid = str(ctx.params, "tokenid") ?? "";
    const user = requireUser(access, userid);
    if (user.tokens[tokenid]) throw new PveApiError(500, "Token already exists.");
    const secret = random.uuid();
    // No expire of its own without one given (user.cfg then reads 0); the user's expiry still
    // ends the token, as authentication checks the user first. The answer shows the token as
    // create_token built it, before user.cfg was read again: without expire.
    const expire = int(ctx.params, "expire");
    const token = {
      privsep: flag(ctx.params, "privsep") ?? 1,
      expire: expire ?? 0,
      secretHash: hashSecret(`${userid}!${tokenid}`, secret),
      ...(str(ctx.params, "comment") !== undefined ? { comment: str(ctx.params, "comment") } : {}),
    };
    user.tokens[tokenid] = token;
    const { expire: _stored, ...info } = tokenInfo(token);
    return { "full-tokenid": `${userid}!${tokenid}`, info: expire === undefined ? info : tokenInfo(token), value: secret };
  });

  router.add("PUT", "/access/users/{userid}/token/{tokenid}", (ctx) => {
    const token = requireToken(str(ctx.params, "userid") ?? "", str(ctx.params, "tokenid") ?? "");
    const privsep = flag(ctx.params, "privsep");
    if (privsep !== undefined) token.privsep = privsep;
    const expire = int(ctx.params, "expire");
    if (expire !== undefined) token.expire = expire;
    const comment = str(ctx.params, "comment");
    if (comment !== undefined) token.comment = comment;
    // PVE echoes the updated token with its numbers as strings (they come from the parsed request).
    const info = tokenInfo(token);
    return { ...info, privsep: String(info.privsep), expire: String(info.expire) };
  });

  router.add("DELETE", "/access/users/{userid}/token/{tokenid}", (ctx) => {
    const userid = str(ctx.params, "userid") ?? "";
    const tokenid = str(ctx.params, "tokenid") ?? "";
    requireToken(userid, tokenid);
    delete access.state.users[userid]?.tokens[tokenid];
    access.state.acl = access.state.acl.filter((e) => !(e.type === "token" && e.ugid === `${userid}!${tokenid}`));
    return null;
  });
}
