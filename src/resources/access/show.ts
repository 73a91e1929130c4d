// `pvectl show` of a spec's access section: the live state of each object the spec lists, in
// the spec's shape (never a secret), and the listed objects that do not exist.
import { aclKey, type DesiredAccess, type LiveAccess, tokenKey } from "./model.js";
import { accessToSpec } from "./to-spec.js";

function keep<T>(wanted: string[] | undefined, live: T[], key: (t: T) => string, noun: string, missing: string[]): T[] {
  if (wanted === undefined) return [];
  const byKey = new Map(live.map((l) => [key(l), l]));
  for (const k of wanted) if (!byKey.has(k)) missing.push(`${noun} ${k}: does not exist`);
  return wanted.flatMap((k) => (byKey.has(k) ? [byKey.get(k) as T] : []));
}

export function shownAccess(desired: DesiredAccess, live: LiveAccess): { access: Record<string, unknown>; missing: string[] } {
  const missing: string[] = [];
  const picked: LiveAccess = {
    roles: keep(
      desired.roles?.filter((r) => !r.absent).map((r) => r.id),
      live.roles,
      (r) => r.id,
      "role",
      missing,
    ),
    groups: keep(
      desired.groups?.map((g) => g.id),
      live.groups,
      (g) => g.id,
      "group",
      missing,
    ),
    users: keep(
      desired.users?.map((u) => u.id),
      live.users,
      (u) => u.id,
      "user",
      missing,
    ),
    tokens: keep(desired.tokens?.map(tokenKey), live.tokens, tokenKey, "token", missing),
    acls: keep(desired.acls?.map(aclKey), live.acls, aclKey, "ACL entry", missing),
    pools: keep(
      desired.pools?.map((p) => p.id),
      live.pools,
      (p) => p.id,
      "pool",
      missing,
    ),
  };
  const all = accessToSpec(picked);
  const declared = Object.fromEntries(Object.entries(all).filter(([list]) => desired[list as keyof DesiredAccess] !== undefined));
  return { access: declared, missing };
}
