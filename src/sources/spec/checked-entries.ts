// The entries of a spec file that passed zod's shape check on their own. After zod refused a
// file, each entry without a problem of its own is still checked further (values, and against
// the other entries), so one run reports every problem, not one stage of them at a time.
import type { z } from "zod";
import type { CheckedAccess } from "./access-normalize.js";
import type { SpecPath } from "./errors.js";
import type { specSchemas } from "./raw-schema.js";

type AccessSchema = ReturnType<typeof specSchemas>["access"];

const ACCESS_LISTS = ["roles", "groups", "users", "tokens", "acls", "pools"] as const;

/** Whether zod found a problem at `prefix` or under it. */
export function hasIssueUnder(issues: readonly z.core.$ZodIssue[], prefix: SpecPath): boolean {
  return issues.some((issue) => prefix.every((step, i) => issue.path[i] === step));
}

/** An entry as `schema` checked it: taken from the whole file's check, else checked on its own. */
export function checkedEntry<S extends z.ZodType>(schema: S, fromFile: z.output<S> | undefined, raw: unknown): z.output<S> | undefined {
  if (fromFile !== undefined) return fromFile;
  const checked = schema.safeParse(raw);
  return checked.success ? checked.data : undefined;
}

/**
 * An `access:` section zod refused, entry by entry: each list keeps its indices (messages name
 * them), an entry with a problem of its own is undefined, a list that is no list is left out.
 */
export function checkedAccessEntries(
  raw: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
  schema: AccessSchema,
): CheckedAccess {
  const out: Record<string, unknown> = {};
  const connection = schema.safeParse({ connection: raw.connection });
  if (connection.success && connection.data.connection !== undefined) out.connection = connection.data.connection;
  for (const list of ACCESS_LISTS) {
    const entries = raw[list];
    if (!Array.isArray(entries)) continue;
    out[list] = entries.map((entry, index) => {
      if (hasIssueUnder(issues, ["access", list, index])) return undefined;
      // A one-entry section checks the entry with the same schema, without digging it out.
      const checked = schema.safeParse({ [list]: [entry] });
      return checked.success ? (checked.data[list] as unknown[] | undefined)?.[0] : undefined;
    });
  }
  return out as CheckedAccess;
}
