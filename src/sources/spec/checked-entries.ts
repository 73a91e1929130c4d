// The entries of a spec file that passed zod's shape check on their own. After zod refused a
// file, each entry without a problem of its own is still checked further (values, and against
// the other entries), so one run reports every problem, not one stage of them at a time.
import type { z } from "zod";
import type { SpecPath } from "./errors.js";

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
