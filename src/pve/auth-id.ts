// User and token ids as pve-access-control writes and checks them (Auth/Plugin.pm
// verify_username, AccessControl.pm pve_verify_tokenid): `user@realm` of 3 to 64 characters,
// the user part anything but whitespace, ':' and '/', the realm a letter and at least one more
// letter, digit, '.', '-' or '_'; a token adds `!name`, the name shaped like a realm.
// One deliberate difference: PVE's user part also takes '@' and '!' (`a!b@pve`), which makes
// a token id ambiguous to read back (`a!b@pve!ci`); pvectl refuses those two in a user name
// and says so.

const REALM = String.raw`[A-Za-z][A-Za-z0-9.\-_]+`;
const USER = String.raw`[^\s:/@!]+`;

export const REALM_RE = new RegExp(`^${REALM}$`);
export const USER_ID_RE = new RegExp(`^${USER}@${REALM}$`);
export const TOKEN_NAME_RE = new RegExp(`^${REALM}$`);
export const TOKEN_ID_RE = new RegExp(`^${USER}@${REALM}!${REALM}$`);
/** PVE's `pve-groupid`: a group's id. */
export const GROUP_ID_RE = /^[A-Za-z0-9.\-_]+$/;

/** What the realm and token-name rule says, for messages. */
export const REALM_RULE = "a letter, then at least one letter, digit, '.', '-' or '_'";

/** Why PVE refuses `id` as a user id (verify_username), or undefined. */
export function userIdProblem(id: string): string | undefined {
  if (id.length < 3) return `user name '${id}' is too short (at least 3 characters)`;
  if (id.length > 64) return `user name '${id}' is too long (${id.length} > 64)`;
  if (!id.includes("@")) return `'${id}' has no realm: write user@realm, e.g. deploy@pve`;
  if (!REALM_RE.test(realmOf(id))) return `realm '${realmOf(id)}' of '${id}' is not one PVE accepts: ${REALM_RULE}`;
  if (!USER_ID_RE.test(id))
    return `user part of '${id}' holds whitespace, ':' or '/' (PVE refuses them) or '@' or '!' (pvectl does: a token id holding them is ambiguous)`;
  return undefined;
}

/** Why PVE refuses `id` as a full token id (`user@realm!name`), or undefined. */
export function tokenIdProblem(id: string): string | undefined {
  const bang = id.lastIndexOf("!");
  if (bang < 0) return `'${id}' has no token name: write user@realm!name, e.g. deploy@pve!ci`;
  const name = id.slice(bang + 1);
  if (!TOKEN_NAME_RE.test(name)) return `token name '${name}' of '${id}' is not one PVE accepts: ${REALM_RULE}`;
  return userIdProblem(id.slice(0, bang));
}

/** A user id or a full token id (GET /access/permissions `userid=` takes either). */
export function authIdProblem(id: string): string | undefined {
  // A realm cannot hold '!', so a '!' after the last '@' makes it a token.
  return id.slice(id.lastIndexOf("@") + 1).includes("!") ? tokenIdProblem(id) : userIdProblem(id);
}

/** The realm of a user id (`deploy@pve` -> `pve`); "" without one. */
export function realmOf(userid: string): string {
  const at = userid.lastIndexOf("@");
  return at < 0 ? "" : userid.slice(at + 1);
}
