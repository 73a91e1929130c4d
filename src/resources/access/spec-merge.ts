// The `access:` sections of several files, merged per connection: every entry names a defined
// connection (or the only one), each id is declared once per cluster, and a list is managed
// when any file writes it.
// The model module, not the kinds' barrel: that loads planning, reading and the API endpoints.
import { aclKey, type DesiredAccess, tokenKey } from "./model.js";
import type { AccessSpec } from "./spec-normalize.js";
import type { SpecIssue } from "../spec-section/issues.js";
import { didYouMean } from "../spec-section/suggest.js";

type ListName = keyof DesiredAccess;

/** Each list's noun and the key that identifies an entry of it on one cluster. */
const KEYS: Record<ListName, { noun: string; key(entry: never): string }> = {
  roles: { noun: "role", key: (r: { id: string }) => r.id },
  groups: { noun: "group", key: (g: { id: string }) => g.id },
  users: { noun: "user", key: (u: { id: string }) => u.id },
  tokens: { noun: "token", key: tokenKey },
  acls: { noun: "ACL entry", key: aclKey },
  pools: { noun: "pool", key: (p: { id: string }) => p.id },
};

function connectionOf(section: AccessSpec, names: string[], issues: SpecIssue[]): string | undefined | null {
  const issue = (message: string) => issues.push({ location: section.source, path: ["access", "connection"], message });
  if (section.connection !== undefined && !names.includes(section.connection)) {
    issue(
      `the access section names connection \`${section.connection}\`, which no spec file defines${didYouMean(section.connection, names)}`,
    );
    return null;
  }
  if (section.connection === undefined && names.length > 1) {
    issue(`the access section names no connection, and the spec defines several (${names.join(", ")}): add \`connection: <name>\``);
    return null;
  }
  return section.connection ?? names[0];
}

/** Appends one section's entries of `list` to `into`'s, refusing an id declared before. */
function mergeList(list: ListName, into: DesiredAccess, from: DesiredAccess, section: AccessSpec, issues: SpecIssue[]): void {
  const entries: Array<{ where?: string }> | undefined = from[list];
  if (entries === undefined) return;
  const key = KEYS[list].key as (entry: unknown) => string;
  const target: Array<{ where?: string }> = into[list] ?? [];
  const seen = new Map(target.map((e) => [key(e), e]));
  for (const entry of entries) {
    const id = key(entry);
    const previous = seen.get(id);
    if (previous !== undefined) {
      const message = `${KEYS[list].noun} ${id} (${entry.where ?? "?"}) is also declared at ${previous.where ?? "?"}; declare each once per cluster`;
      issues.push({ location: section.source, path: ["access", list], message });
      continue;
    }
    seen.set(id, entry);
    target.push(entry);
  }
  Object.assign(into, { [list]: target });
}

export function mergeAccess(sections: AccessSpec[], names: string[], issues: SpecIssue[]): AccessSpec[] {
  const merged = new Map<string, AccessSpec>();
  for (const section of sections) {
    const connection = connectionOf(section, names, issues);
    if (connection === null) continue;
    const key = connection ?? "";
    let into = merged.get(key);
    if (into === undefined) {
      into = { ...(connection !== undefined ? { connection } : {}), source: section.source, desired: {} };
      merged.set(key, into);
    }
    for (const list of Object.keys(KEYS) as ListName[]) mergeList(list, into.desired, section.desired, section, issues);
  }
  return [...merged.values()];
}
