// Saved plans (`plan --out FILE`, `apply --plan FILE`). A saved plan is a record of what a
// reviewer approved, not a program: apply recomputes the plan from the same spec files (same
// content, by SHA-256) and options against the live cluster, and runs the recomputed plan only
// if it equals the saved one (plan-compare.ts). It is refused when made by another pvectl
// version, for another cluster (cluster-identity.ts), or when a guest it changes has another
// config `digest` (PVE's SHA-1 of the config file) or a guest it creates exists by now.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { kindOf } from "../resources/index.js";
import type { PveClient } from "../api/index.js";
import { PVECTL_VERSION } from "../version.js";
import { mapConcurrent } from "../util/concurrency.js";
import { PvectlError } from "../util/errors.js";
import type { ClusterSnapshot } from "./cluster.js";
import { type ClusterIdentity, readClusterIdentity } from "./cluster-identity.js";
import { findGuest } from "./identity.js";
import type { PlanOptions, PlanResult } from "./plan.js";
import { describeIssues, savedPlanSchema } from "./saved-plan-schema.js";
import type { Plan } from "../plan/types.js";

/**
 * The saved-plan format. 3: a call is its endpoint, path parameters and body, with typed
 * references for a vmid allocated at apply and a cloned volume (plan/call.ts); 2 had paths
 * with `{vmid}` and `{volume:SLOT}` placeholders.
 */
export const SAVED_PLAN_FORMAT = "pvectl-saved-plan/3";

export interface SavedSpecFile {
  /** As given to `pvectl plan` (relative paths are relative to the directory pvectl ran in). */
  path: string;
  sha256: string;
}

/** The plan options that change the plan's content; see savedPlanOptionsSchema to add one. */
export type SavedPlanOptions = Required<Pick<PlanOptions, "shutdownTimeoutSeconds" | "forceStop" | "adopt">> &
  Pick<PlanOptions, "showSecret" | "placement">;
import { writePrivateFile } from "../util/private-file.js";
import { safeLine } from "../util/safe-text.js";

export interface SavedPlan {
  format: typeof SAVED_PLAN_FORMAT;
  pvectlVersion: string;
  /** The spec's connection name (undefined: the PROXMOX_* environment). */
  connection?: string;
  specFiles: SavedSpecFile[];
  options: SavedPlanOptions;
  cluster: ClusterIdentity;
  plan: Plan;
}

export type SavedPlanContent = Omit<SavedPlan, "format" | "pvectlVersion">;

export class SavedPlanError extends PvectlError {
  readonly kind = "saved-plan";
  readonly problems: string[];
  constructor(
    readonly file: string,
    problems: string[],
  ) {
    const shown = problems.map(safeLine);
    super(
      `the saved plan ${safeLine(file)} cannot be applied:\n${shown.map((p) => `  - ${p}`).join("\n")}\n` +
        "Run `pvectl plan --out FILE` again, review it, and apply the new plan.",
    );
    this.name = "SavedPlanError";
    this.problems = shown;
  }
}

export async function savePlan(file: string, saved: SavedPlanContent): Promise<void> {
  const document: SavedPlan = { format: SAVED_PLAN_FORMAT, pvectlVersion: PVECTL_VERSION, ...saved };
  await writePrivateFile(file, `${JSON.stringify(document, null, 2)}\n`);
}

/** The SHA-256 of each spec file, as stored in a saved plan. */
export async function hashSpecFiles(paths: string[]): Promise<SavedSpecFile[]> {
  return Promise.all(
    paths.map(async (path) => ({
      path,
      sha256: createHash("sha256")
        .update(await readFile(path))
        .digest("hex"),
    })),
  );
}

/** What `plan --out` stores besides the plan: the spec files' hashes and the cluster's identity. */
export async function savedPlanContent(
  client: PveClient,
  { plan, context }: PlanResult,
  specFiles: string[],
  options: SavedPlanOptions,
  connection: string | undefined,
): Promise<SavedPlanContent> {
  return {
    ...(connection !== undefined ? { connection } : {}),
    specFiles: await hashSpecFiles(specFiles),
    options,
    cluster: await readClusterIdentity(client, context.cluster),
    plan,
  };
}

/** Spec files that are gone or changed since the plan was saved. */
export async function checkSpecFiles(files: SavedSpecFile[]): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const now = await readFile(file.path).catch((err: NodeJS.ErrnoException) => err.code ?? "unreadable");
    if (typeof now === "string") problems.push(`the spec file ${file.path} it was made from cannot be read (${now})`);
    else if (createHash("sha256").update(now).digest("hex") !== file.sha256) {
      problems.push(`the spec file ${file.path} changed since the plan was made (its SHA-256 differs)`);
    }
  }
  return problems;
}

/** Far above any real plan (10,000 guests take a few MB); a bigger file is not read into memory. */
export const MAX_SAVED_PLAN_BYTES = 64 * 1024 * 1024;

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    const { size } = await stat(file);
    if (size > MAX_SAVED_PLAN_BYTES) {
      throw new SavedPlanError(file, [
        `it has ${size} bytes, more than the ${MAX_SAVED_PLAN_BYTES / 1024 / 1024} MiB a saved plan may have`,
      ]);
    }
    text = await readFile(file, "utf8");
  } catch (err) {
    if (err instanceof SavedPlanError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new SavedPlanError(file, [code === "ENOENT" ? "no such file" : `it cannot be read (${code ?? String(err)})`]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SavedPlanError(file, ["not a JSON plan file (it may be truncated or edited by hand)"]);
  }
}

/** Reads and checks the shape of a saved plan; the version is checked before the rest. */
export async function loadPlan(file: string): Promise<SavedPlan> {
  const data = await readJson(file);
  const head = (data !== null && typeof data === "object" ? data : {}) as { format?: unknown; pvectlVersion?: unknown };
  if (typeof head.format !== "string" || !head.format.startsWith("pvectl-saved-plan/")) {
    throw new SavedPlanError(file, ["not a pvectl saved plan (written by `pvectl plan --out FILE`)"]);
  }
  if (head.format !== SAVED_PLAN_FORMAT) {
    // An older format says its calls another way: it cannot be compared with a plan made now.
    throw new SavedPlanError(file, [
      `it is in the saved-plan format ${head.format.slice("pvectl-saved-plan/".length)}, which this pvectl (${PVECTL_VERSION}) no longer reads (it reads format ${SAVED_PLAN_FORMAT.slice("pvectl-saved-plan/".length)}); nothing was applied: run \`pvectl plan --out FILE\` again to save the plan in the current format`,
    ]);
  }
  if (head.pvectlVersion !== PVECTL_VERSION) {
    const made = typeof head.pvectlVersion === "string" ? `pvectl ${head.pvectlVersion}` : "an older pvectl";
    throw new SavedPlanError(file, [`it was made by ${made}; this is pvectl ${PVECTL_VERSION}, which applies only its own plans`]);
  }
  const parsed = savedPlanSchema.safeParse(data);
  if (!parsed.success)
    throw new SavedPlanError(file, ["it is not a well-formed saved plan:", ...describeIssues(parsed.error).map((l) => `  ${l}`)]);
  // The schema checked every field apply reads; the step action is compared, not trusted.
  return parsed.data as unknown as SavedPlan;
}

/** Guests changed since the plan (config digest, node) or created by someone else since; empty when none. */
export async function checkSavedPlan(client: PveClient, plan: Plan, cluster: ClusterSnapshot): Promise<string[]> {
  const problems: string[] = [];
  const changing = plan.guests.filter((g) => g.steps.length > 0);
  await mapConcurrent(changing, 16, async (guest) => {
    if (!guest.exists) {
      const match = findGuest({ name: guest.name, ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}) }, cluster.guests);
      if (match.kind === "found") problems.push(`${guest.key} was to be created but now exists (vmid ${match.guest.vmid})`);
      return;
    }
    const live = cluster.guests.find((g) => g.vmid === guest.vmid);
    if (!live) {
      problems.push(`${guest.key} (vmid ${guest.vmid}) no longer exists`);
      return;
    }
    if (live.node !== guest.node) {
      problems.push(`${guest.key} (vmid ${guest.vmid}) moved from ${guest.node} to ${live.node} since the plan`);
      return;
    }
    const config = await kindOf(guest).read.config(client, live.node, live.vmid);
    if (config.digest !== guest.digest) {
      problems.push(
        `${guest.key} (vmid ${guest.vmid}) changed since the plan (config digest ${guest.digest?.slice(0, 12)} is now ${config.digest?.slice(0, 12)})`,
      );
    }
  });
  return problems.sort();
}
