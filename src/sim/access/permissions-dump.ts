// GET /access/permissions as pve-access-control's API2/AccessControl.pm `permissions` answers:
// `userid` (a user or a full token id) defaults to the caller; the caller may ask for itself or,
// as a user, for its own tokens, else needs Sys.Audit on /access. PVE does not check that the
// user or token exists: an unknown one simply holds nothing (`{}`). With `path`, that one path
// is answered under the key as given, its privileges possibly empty.
import type { AuthIdentity, HandlerContext } from "../contract.js";
import { str } from "../params.js";
import { authId } from "./authenticate.js";
import { normalizePath } from "./evaluate.js";
import type { AccessControl } from "./service.js";
import { splitAuthId } from "./state.js";

/** Who `userid` is as an identity to evaluate (an unknown token: one with no token entry, holding nothing). */
function subjectOf(access: AccessControl, userid: string): AuthIdentity {
  const { userid: user, tokenid } = splitAuthId(userid);
  if (!tokenid) return { userid: user };
  const token = access.state.users[user]?.tokens[tokenid];
  return { userid: user, tokenid, privsep: token === undefined || token.privsep === 1 };
}

export function permissionsRequest(
  ctx: HandlerContext,
  access: AccessControl,
  dump: (subject: AuthIdentity) => Record<string, Record<string, number>>,
): Record<string, Record<string, number>> {
  const caller = authId(ctx.auth);
  const requested = str(ctx.params, "userid") ?? caller;
  const owner = splitAuthId(requested).tokenid ? splitAuthId(requested).userid : undefined;
  if (requested !== caller && owner !== caller) ctx.checkPermission("/access", ["Sys.Audit"]);
  const subject = requested === caller ? ctx.auth : subjectOf(access, requested);
  const path = str(ctx.params, "path");
  if (path !== undefined && path !== "") return { [path]: Object.fromEntries(access.privileges(subject, normalizePath(path))) };
  return dump(subject);
}
