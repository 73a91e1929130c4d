// The `access:` section of a spec file: one object of lists (roles, groups, users, tokens, ACL
// entries, pools), normalised, then merged per connection across files. After the file's
// schema check failed, each entry without a problem of its own is still checked further, so
// one run reports every problem, not one stage of them at a time.
import type { ObjectSection, SectionInput } from "../object-family.js";
import { mergeAccess } from "./spec-merge.js";
import { type AccessSpec, type CheckedAccess, normalizeAccess } from "./spec-normalize.js";
import { accessSchema } from "./spec-schema.js";

const ACCESS_LISTS = ["roles", "groups", "users", "tokens", "acls", "pools"] as const;

/** The section's schema, built once: the file's schema and the per-entry checks share it (its JSON Schema id is registered once). */
let built: ReturnType<typeof accessSchema> | undefined;
const schema = () => (built ??= accessSchema());

/**
 * A section zod refused, entry by entry: each list keeps its indices (messages name them), an
 * entry with a problem of its own is undefined, a list that is no list is left out.
 */
function checkedEntries(raw: Record<string, unknown>, hasIssueUnder: SectionInput["hasIssueUnder"]): CheckedAccess {
  const out: Record<string, unknown> = {};
  const connection = schema().safeParse({ connection: raw.connection });
  if (connection.success && connection.data.connection !== undefined) out.connection = connection.data.connection;
  for (const list of ACCESS_LISTS) {
    const entries = raw[list];
    if (!Array.isArray(entries)) continue;
    out[list] = entries.map((entry, index) => {
      if (hasIssueUnder(["access", list, index])) return undefined;
      // A one-entry section checks the entry with the same schema, without digging it out.
      const checked = schema().safeParse({ [list]: [entry] });
      return checked.success ? (checked.data[list] as unknown[] | undefined)?.[0] : undefined;
    });
  }
  return out as CheckedAccess;
}

export const ACCESS_SECTION: ObjectSection<"access", AccessSpec> = {
  key: "access",
  schema: () => schema().optional(),
  read: ({ raw, checked, hasIssueUnder, locate, sink, baseDir }) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
    // `checked` is this section as the whole file's check returned it (that check includes this schema).
    const entries = (checked as CheckedAccess | undefined) ?? checkedEntries(raw as Record<string, unknown>, hasIssueUnder);
    const section = normalizeAccess(entries, ["access"], (path) => locate(path), sink, baseDir);
    // A section whose `connection` is refused belongs to no known cluster: checked, not merged.
    return hasIssueUnder(["access", "connection"]) ? undefined : [section];
  },
  merge: mergeAccess,
};
