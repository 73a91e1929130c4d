// Errors the engine raises for a person to act on: what happened and what to run next.

/** Nothing runs while the preflight found problems. */
export class PreflightFailedError extends Error {
  constructor(readonly problems: string[]) {
    super(`the preflight found ${problems.length} problem(s); nothing was changed:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "PreflightFailedError";
  }
  userMessage(): string {
    return this.message;
  }
}

/** The guest changed between plan and apply (PVE's config digest no longer matches). */
export class ChangedSincePlanError extends Error {
  constructor(readonly guest: string) {
    super(`${guest} changed since the plan was made (its config digest differs); run \`pvectl plan\` again and review the new plan`);
    this.name = "ChangedSincePlanError";
  }
  userMessage(): string {
    return this.message;
  }
}
