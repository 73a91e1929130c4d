// Errors the engine raises for a person to act on: what happened and what to run next.
import { PvectlError } from "../util/errors.js";

/** Nothing runs while the preflight found problems. */
export class PreflightFailedError extends PvectlError {
  readonly kind = "preflight";

  constructor(readonly problems: string[]) {
    super(`the preflight found ${problems.length} problem(s); nothing was changed:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "PreflightFailedError";
  }
}

/** The guest changed between plan and apply (PVE's config digest no longer matches). */
export class ChangedSincePlanError extends PvectlError {
  readonly kind = "changed-since-plan";

  constructor(readonly guest: string) {
    super(`${guest} changed since the plan was made (its config digest differs); run \`pvectl plan\` again and review the new plan`);
    this.name = "ChangedSincePlanError";
  }
}
