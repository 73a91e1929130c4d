// The final read-back of an apply: what it changed is planned again, by the planner itself
// (buildPlan: the same cluster listing, guest reads, pool membership, tags, power, pending
// section, snapshot retention and access objects), against a fresh read. A step left that this
// run did not hold back means the guest or object does not match the spec (another run, a
// person or a tool changed it while this apply ran, or a step did not land as planned): the
// report says "not converged" instead of "ok". Steps the guard rails held back are expected
// to be left, and are reported as pending, not as a difference.
import type { PveClient } from "../api/index.js";
import type { GuestPlan, Plan, Step } from "../plan/types.js";
import type { DesiredGuest } from "../resources/index.js";
import type { DesiredObjects } from "../resources/objects.js";
import { buildPlan } from "./plan.js";
import { type GuestReport, type ObjectReport, resultOf, type StepReport } from "./report.js";
import { errorText } from "./retry-policy.js";

/** What the read-back compares with: the spec the plan was made from. */
export interface ReadBackSpec {
  guests: DesiredGuest[];
  /** The spec's objects (backup jobs, access); absent: none declared. */
  objects?: DesiredObjects;
}

/** The apply's outcome (guest report i is the plan's guest i; objects by kind and key): the read-back notes differences on it. */
export interface AppliedRun {
  guests: GuestReport[];
  objects?: ObjectReport[];
}

const NOT_CONVERGED =
  "something changed it during this run (another run, a person, a tool), or a step did not take effect: run plan again to see the difference";

/** Steps ran and none failed; a destroyed guest has nothing to read back. */
function ranCleanly(steps: StepReport[], error: string | undefined): boolean {
  return (
    error === undefined &&
    steps.some((s) => s.status === "done") &&
    steps.every((s) => s.status === "done" || s.status === "skipped") &&
    !steps.some((s) => s.status === "done" && s.action === "destroy")
  );
}

/** The steps of the plan this run did not run (held back by the guard rails): the read-back may find them again. */
function heldBack(steps: Step[], reports: StepReport[]): Set<string> {
  const done = new Set(reports.filter((s) => s.status === "done").map((s) => s.id));
  return new Set(steps.filter((s) => !done.has(s.id)).map((s) => `${s.action}\u0000${s.summary}`));
}

/** What the fresh plan still wants that this run's plan did not leave pending. */
function differences(now: { steps: Step[]; errors: string[] } | undefined, planned: { steps: Step[] }, reports: StepReport[]): string[] {
  if (now === undefined) return [];
  const expected = heldBack(planned.steps, reports);
  return [...now.errors, ...now.steps.filter((s) => !expected.has(`${s.action}\u0000${s.summary}`)).map((s) => s.summary)];
}

/**
 * Re-plans every guest and object of `plan` whose steps ran without failing, and sets the error
 * of each whose fresh plan has steps this run did not hold back (its result becomes partial).
 */
export async function readBack(client: PveClient, plan: Plan, run: AppliedRun, spec: ReadBackSpec): Promise<void> {
  const guests = plan.guests.flatMap((guest, i) => {
    const report = run.guests[i]!;
    const wanted = spec.guests.find((d) => d.key === guest.key);
    return wanted !== undefined && !wanted.absent && ranCleanly(report.steps, report.error) ? [{ guest, report, wanted }] : [];
  });
  const objects = (plan.objects ?? []).flatMap((object) => {
    const report = run.objects?.find((o) => o.kind === object.kind && o.key === object.key);
    return report !== undefined && spec.objects !== undefined && ranCleanly(report.steps, report.error) ? [{ object, report }] : [];
  });
  if (guests.length === 0 && objects.length === 0) return;
  let now: Plan;
  try {
    // The spec entries that ran (created ones found by name, like a rerun would); adopting and
    // printing secrets allowed, so an ownership or token gap shows as a step, not a refusal.
    const options = { skipPreflight: true, adopt: true, showSecret: true, createWait: { limitMs: 0 } };
    now = (
      await buildPlan(
        client,
        guests.map((g) => g.wanted),
        options,
        objects.length > 0 ? spec.objects : {},
      )
    ).plan;
  } catch (err) {
    const why = `not converged: the final read-back, which confirms the run matches the spec, failed: ${errorText(err).split("\n")[0]}`;
    for (const { guest, report } of guests) setGuestError(report, guest, why);
    for (const { report } of objects) report.error = why;
    return;
  }
  for (const { guest, report } of guests) {
    const left = differences(
      now.guests.find((g) => g.key === guest.key),
      guest,
      report.steps,
    );
    if (left.length > 0)
      setGuestError(
        report,
        guest,
        `not converged: the guest does not match the spec after this run (${left.join("; ")}); ${NOT_CONVERGED}`,
      );
  }
  for (const { object, report } of objects) {
    const left = differences(
      now.objects?.find((o) => o.kind === object.kind && o.key === object.key),
      object,
      report.steps,
    );
    if (left.length > 0)
      report.error = `not converged: ${object.kind} ${object.key} does not match the spec after this run (${left.join("; ")}); ${NOT_CONVERGED}`;
  }
}

function setGuestError(report: GuestReport, guest: GuestPlan, why: string): void {
  report.error = why;
  report.result = resultOf(report, guest.exists);
}
