// After a call whose answer was lost: is the object now as the step wanted it? Read back by
// id, so a create that landed is never sent again and a delete of what is gone is done.
import type { ApiReader } from "../../api/endpoints/index.js";
import type { ObjectIntent } from "../../plan/intent.js";
import { aclKey, type DesiredAccess, type LiveAccess, tokenKey } from "./model.js";
import { readAccess } from "./read.js";

/** The list to read for one kind; find: undefined when `key` is absent, else whether it is pvectl's (always, for kinds without a marker). */
const PROBES: Partial<Record<ObjectIntent["object"], { read: DesiredAccess; find(live: LiveAccess, key: string): boolean | undefined }>> = {
  "access-role": { read: { roles: [] }, find: (l, k) => (l.roles.some((r) => r.id === k) ? true : undefined) },
  "access-group": { read: { groups: [] }, find: (l, k) => l.groups.find((g) => g.id === k)?.marked },
  "access-user": { read: { users: [] }, find: (l, k) => l.users.find((u) => u.id === k)?.marked },
  "access-token": { read: { tokens: [] }, find: (l, k) => l.tokens.find((t) => tokenKey(t) === k)?.marked },
  "access-acl": { read: { acls: [] }, find: (l, k) => (l.acls.some((a) => aclKey(a) === k) ? true : undefined) },
  "access-pool": { read: { pools: [] }, find: (l, k) => l.pools.find((p) => p.id === k)?.marked },
};

/** true: found as a create leaves it; false: absent; undefined: there, but not pvectl's. */
async function present(api: ApiReader, intent: ObjectIntent): Promise<boolean | undefined> {
  const probe = PROBES[intent.object];
  if (!probe) return undefined;
  const found = probe.find(await readAccess(api, probe.read), intent.key);
  if (found === undefined) return false;
  return found ? true : undefined;
}

export async function accessLanded(api: ApiReader, intent: ObjectIntent): Promise<boolean> {
  if (intent.op === "object-create") return (await present(api, intent)) === true;
  if (intent.op === "object-delete") return (await present(api, intent)) === false;
  // Updates set absolute values: resending one is harmless, so it is never resolved here.
  return false;
}
