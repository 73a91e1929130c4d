// Applying a plan made by planSpec, planDestroy or recomputeSavedPlan: the engine runs its steps
// under the guard rails, reusing what planning read instead of reading the cluster again.
import { readFile } from "node:fs/promises";
import type { PveClient } from "../api/index.js";
import { type ApplyOptions, applyPlan as runPlan, type SecretResolver } from "../engine/apply.js";
import type { ApplyReport } from "../engine/report.js";
import { DEFAULT_SECRET_POLICY, type SecretPolicy } from "../sources/secret-policy.js";
import { PvectlError } from "../util/errors.js";
import type { PlannedSpec } from "./plan-spec.js";

/** A secret a create call names could not be read (the guest is not created; nothing else changes). */
export class SecretReadError extends PvectlError {
  readonly kind = "error";

  constructor(message: string) {
    super(message);
    this.name = "SecretReadError";
  }
}

/**
 * Reads the secrets plans carry by reference (a container's root password) when apply sends
 * the call. The spec loader already checked each reference against the secret policy (the
 * variable's prefix, the file's directory); the prefix is checked again here because a
 * reference is read long after it was written.
 */
export function secretResolver(policy: SecretPolicy = DEFAULT_SECRET_POLICY, env: NodeJS.ProcessEnv = process.env): SecretResolver {
  return async (ref) => {
    if ("env" in ref) {
      if (!policy.secretEnvPrefixes.some((prefix) => ref.env.startsWith(prefix))) {
        throw new SecretReadError(
          `environment variable ${ref.env} does not start with an allowed prefix (${policy.secretEnvPrefixes.join(", ")}); rename it, or allow it with --secret-env-prefix`,
        );
      }
      const value = env[ref.env];
      if (value === undefined || value === "")
        throw new SecretReadError(
          `environment variable ${ref.env} is not set (it holds a password the spec refers to); set it and run apply again`,
        );
      return value;
    }
    let text: string;
    try {
      text = await readFile(ref.file, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
      throw new SecretReadError(`cannot read secret file ${ref.file} (${code}); create it, or fix the path the spec names`);
    }
    // A file written by `echo` ends in a newline that is not part of the password.
    const value = text.replace(/\r?\n$/, "");
    if (value === "") throw new SecretReadError(`secret file ${ref.file} is empty; write the password into it`);
    return value;
  };
}

export interface ApplyPlanOptions extends Omit<ApplyOptions, "cluster" | "live" | "desired" | "desiredObjects"> {
  /**
   * After the run, re-plan every guest and object whose steps ran against a fresh read (the
   * planner's own reads) and report it "not converged" when steps are left that the guard
   * rails did not hold back (`pvectl apply` does; it costs one listing and one read per such guest).
   */
  verifyConvergence?: boolean;
  /** Where references to secrets may be read from (the default: PROXMOX_/PVE_ variables; files as the spec checked them). */
  secretPolicy?: SecretPolicy;
}

export async function applyPlan(client: PveClient, planned: PlannedSpec, options: ApplyPlanOptions = {}): Promise<ApplyReport> {
  const { verifyConvergence, secretPolicy, ...apply } = options;
  return runPlan(client, planned.plan, {
    resolveSecret: secretResolver(secretPolicy),
    ...apply,
    ...(planned.context ? { cluster: planned.context.cluster, live: planned.context.live } : {}),
    ...(verifyConvergence
      ? { desired: planned.desired, ...(planned.objects !== undefined ? { desiredObjects: planned.objects } : {}) }
      : {}),
  });
}
