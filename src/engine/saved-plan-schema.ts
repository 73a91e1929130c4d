// The shape of a saved plan file, checked before anything in it is used: the file travels
// between CI jobs and reviewers, so it is untrusted input. A file that does not match gets a
// list of what is wrong and where, never a crash further down. Objects keep fields this
// version does not know (loose): they cannot run anything, since apply executes the
// recomputed plan, but they take part in the comparison with it.
import { z } from "zod";
import { SEVERITIES } from "../plan/types.js";

const param = z.union([z.string(), z.number()]);

/** A vmid apply allocates, or a volume a clone of the plan names (plan/call.ts). */
const allocatedVmid = z.strictObject({ allocated: z.literal("vmid") });
const clonedVolume = z.strictObject({ clonedVolume: z.string(), options: z.string().optional() });

const call = z.looseObject({
  method: z.enum(["GET", "POST", "PUT", "DELETE"]),
  endpoint: z.string().startsWith("/"),
  pathParams: z.record(z.string(), z.union([param, allocatedVmid])),
  body: z.record(z.string(), z.union([param, clonedVolume])),
  growOnly: z.boolean().optional(),
});

const step = z.looseObject({
  id: z.string(),
  action: z.string(),
  severity: z.enum(SEVERITIES),
  summary: z.string(),
  changes: z.array(z.looseObject({ field: z.string(), before: z.string().optional(), after: z.string().optional() })),
  calls: z.array(call),
  deletesVolumes: z.array(z.string()).optional(),
  notes: z.array(z.string()).optional(),
  pendingUntilReboot: z.boolean().optional(),
  shutdownTimeoutSeconds: z.number().optional(),
  hostAccess: z.array(z.string()).optional(),
});

const guest = z.looseObject({
  key: z.string(),
  name: z.string(),
  vmid: z.number().int().positive().optional(),
  node: z.string(),
  exists: z.boolean(),
  digest: z.string().optional(),
  steps: z.array(step),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

const object = z.looseObject({
  kind: z.string(),
  key: z.string(),
  exists: z.boolean(),
  foreign: z.boolean().optional(),
  steps: z.array(step),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});

const plan = z.looseObject({
  format: z.literal("pvectl-plan/1"),
  createdAt: z.string(),
  target: z.string(),
  guests: z.array(guest),
  objects: z.array(object).optional(),
  preflightErrors: z.array(z.looseObject({ kind: z.string(), message: z.string() })),
});

/**
 * The plan options that change what a plan contains. A new option that does is one more line
 * here (and in `SavedPlanOptions`); strict, so an option this version does not know is refused.
 */
export const savedPlanOptionsSchema = z.strictObject({
  shutdownTimeoutSeconds: z.number().int().positive(),
  forceStop: z.boolean(),
  adopt: z.boolean(),
  showSecret: z.boolean().optional(),
  placement: z.enum(["record", "spec"]).optional(),
});

export const clusterIdentitySchema = z.strictObject({
  name: z.string().optional(),
  nodes: z.array(z.string()),
  fingerprint: z.string().optional(),
});

export const savedPlanSchema = z.strictObject({
  format: z.literal("pvectl-saved-plan/3"),
  pvectlVersion: z.string(),
  connection: z.string().optional(),
  specFiles: z.array(z.strictObject({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).min(1),
  options: savedPlanOptionsSchema,
  cluster: clusterIdentitySchema,
  plan,
});

/** `guests.0.steps.1.severity: ...` for each problem zod found (the first few). */
export function describeIssues(error: z.ZodError, limit = 5): string[] {
  const lines = error.issues.slice(0, limit).map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  if (error.issues.length > limit) lines.push(`... and ${error.issues.length - limit} more problem(s)`);
  return lines;
}
