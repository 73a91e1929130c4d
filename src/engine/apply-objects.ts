// Runs the objects section of a plan (backup jobs ...): each object's steps in order, under the
// same guard rails as guests. Calls go by the object's id. A transient failure is retried; a
// call whose answer was lost is first resolved by reading the job list back (a create that
// landed is done, never sent again; a delete whose job is gone is done).
import type { PveClient } from "../api/index.js";
import { readBackupJobs } from "../resources/backup-job/index.js";
import type { ObjectPlan, Step } from "../plan/types.js";
import { refusal, type GuardRails } from "./guard-rails.js";
import type { ObjectReport, StepReport } from "./report.js";
import { backoff, errorText, isTransientError, mayHaveApplied, type RetryPolicy } from "./retry-policy.js";

export type ObjectEvent =
  | { type: "object-step-done"; object: ObjectPlan; step: Step }
  | { type: "object-step-failed"; object: ObjectPlan; step: Step; error: string };

export interface ObjectApplyOptions {
  guard: GuardRails;
  retry: RetryPolicy;
  emit?: (event: ObjectEvent) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After a failure that may have landed: is the object now as the step wanted it? */
async function landed(client: PveClient, step: Step): Promise<boolean> {
  const intent = step.calls[0]?.intent;
  if (intent?.kind !== "object") return false;
  const jobs = await readBackupJobs(client);
  const job = jobs.find((j) => j.id === intent.key);
  if (intent.op === "object-create") return job?.marked === true;
  if (intent.op === "object-delete") return job === undefined;
  return false;
}

/**
 * One step's call, retried while that is safe. A create carries the job's id, so PVE refuses
 * a second one (`already exists`): after any failure of a create the list is read first, and a
 * job there with pvectl's marker means the first request landed.
 */
async function runStep(client: PveClient, step: Step, retry: RetryPolicy): Promise<number> {
  const create = step.action === "object-create";
  for (let attempt = 1; ; attempt++) {
    try {
      for (const call of step.calls) await client.request(call.method, call.path, call.params);
      return attempt;
    } catch (err) {
      if ((create || mayHaveApplied(err)) && (await landed(client, step).catch(() => false))) return attempt;
      if (!isTransientError(err) || attempt >= retry.maxAttempts) throw err;
      await sleep(backoff(retry, attempt));
    }
  }
}

function resultOf(object: ObjectPlan, steps: StepReport[]): ObjectReport["result"] {
  if (steps.some((s) => s.status === "failed")) return "failed";
  const done = steps.filter((s) => s.status === "done");
  if (steps.length === 0) return "unchanged";
  if (done.length === 0) return "skipped";
  if (done.some((s) => s.action === "object-delete")) return "deleted";
  return object.exists ? "changed" : "created";
}

export async function applyObject(client: PveClient, object: ObjectPlan, options: ObjectApplyOptions): Promise<ObjectReport> {
  const steps: StepReport[] = [];
  const pending: string[] = [];
  let error: string | undefined;
  for (const step of object.steps) {
    const base = { id: step.id, action: step.action, severity: step.severity, summary: step.summary };
    const held = refusal(step, options.guard);
    if (object.errors.length > 0 || error !== undefined) {
      steps.push({ ...base, status: "not-run", reason: error ?? object.errors[0] });
    } else if (held !== undefined) {
      steps.push({ ...base, status: "skipped", reason: held });
      pending.push(`${step.summary}: ${held}`);
    } else {
      try {
        const attempts = await runStep(client, step, options.retry);
        steps.push({ ...base, status: "done", attempts });
        options.emit?.({ type: "object-step-done", object, step });
      } catch (err) {
        error = errorText(err);
        steps.push({ ...base, status: "failed", reason: error });
        options.emit?.({ type: "object-step-failed", object, step, error });
      }
    }
  }
  return { kind: object.kind, key: object.key, result: resultOf(object, steps), steps, pending, ...(error !== undefined ? { error } : {}) };
}

/** Every object of the plan, one after the other (a handful of cluster-wide calls). */
export async function applyObjects(client: PveClient, objects: ObjectPlan[], options: ObjectApplyOptions): Promise<ObjectReport[]> {
  const reports: ObjectReport[] = [];
  for (const object of objects) reports.push(await applyObject(client, object, options));
  return reports;
}
