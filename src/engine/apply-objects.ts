// Runs the objects section of a plan (backup jobs, access objects ...): each object's steps in
// order, under the same guard rails as guests. Calls go by the object's id. A transient
// failure is retried; a call whose answer was lost is first resolved by reading the object
// back through its family (a create that landed is done, never sent again; a delete whose
// object is gone is done). A call whose answer holds a one-time secret (a new API token)
// delivers it to its sink, which is opened before the call (secret-sink.ts).
import { revealedSecret } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { ApiCall, ObjectPlan, Step } from "../plan/types.js";
import { familyOf } from "../resources/objects.js";
import { type GuardRails, refusal } from "./guard-rails.js";
import type { ObjectReport, StepReport } from "./report.js";
import { backoff, errorText, isTransientError, mayHaveApplied, type RetryPolicy } from "./retry-policy.js";
import { type OpenSink, openSink, type SecretPrinter } from "./secret-sink.js";

export type ObjectEvent =
  | { type: "object-step-done"; object: ObjectPlan; step: Step }
  | { type: "object-step-failed"; object: ObjectPlan; step: Step; error: string };

export interface ObjectApplyOptions {
  guard: GuardRails;
  retry: RetryPolicy;
  emit?: (event: ObjectEvent) => void;
  /** Prints a secret once (a token created with --show-secret); without it such a step fails before its call. */
  printSecret?: SecretPrinter;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** After a failure that may have landed: is the object now as the step wanted it? */
async function landed(client: PveClient, step: Step): Promise<boolean> {
  const intent = step.calls[0]?.intent;
  if (intent?.kind !== "object") return false;
  return familyOf(intent.object).landed(client, intent);
}

/**
 * A secret-revealing call whose answer was lost after it landed: nobody has the secret, so the
 * object is useless. It is removed again (nobody can have used it) and the step fails, so the
 * next apply creates it anew; a read-back, never a resend, decided that it landed.
 */
async function lostSecret(client: PveClient, call: ApiCall, step: Step): Promise<Error> {
  const removed = await client.request("DELETE", call.path, {}).then(
    () => true,
    () => false,
  );
  const what = step.summary.split(":")[0];
  return new Error(
    removed
      ? `${what}: PVE created it, but its answer (with the secret, shown only once) was lost; the token was removed again since nobody has its secret. Run apply again to create it anew`
      : `${what}: PVE created it, but its answer (with the secret, shown only once) was lost, and removing it failed: nobody has its secret. Delete the token (pveum user token remove) and run apply again`,
  );
}

/** Sends one call; a secret in its answer goes to the sink opened before it. */
async function send(client: PveClient, call: ApiCall, sink: OpenSink | undefined): Promise<void> {
  const answer = await client.request(call.method, call.path, call.params);
  if (sink === undefined || call.revealsSecret === undefined) return;
  const secret = revealedSecret(answer, call.revealsSecret.field);
  if (secret === undefined) throw new Error(`${call.path}: PVE's answer holds no ${call.revealsSecret.field}`);
  client.maskSecret(secret);
  await sink.deliver(secret).catch((err: unknown) => {
    throw new SecretDeliveryError(errorText(err));
  });
}

/** The object was made but its secret could not be kept: handled as a lost answer. */
class SecretDeliveryError extends Error {}

/**
 * One step's call, retried while that is safe. A create carries the object's id, so PVE refuses
 * a second one (`already exists`): after any failure of a create the object is read back first,
 * and finding it as the step makes it means the first request landed.
 */
async function runStep(client: PveClient, step: Step, options: ObjectApplyOptions): Promise<number> {
  const create = step.action === "object-create";
  const secretCall = step.calls.find((c) => c.revealsSecret !== undefined);
  const sink = secretCall?.revealsSecret ? await openSink(secretCall.revealsSecret.to, step.id, options.printSecret) : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      for (const call of step.calls) await send(client, call, call === secretCall ? sink : undefined);
      return attempt;
    } catch (err) {
      if (sink !== undefined && secretCall !== undefined) {
        // Only an answer that may have been lost is read back: a definite refusal made nothing of ours.
        const made = err instanceof SecretDeliveryError || (mayHaveApplied(err) && (await landed(client, step).catch(() => false)));
        if (made) {
          await sink.abandon();
          throw await lostSecret(client, secretCall, step);
        }
      } else if ((create || mayHaveApplied(err)) && (await landed(client, step).catch(() => false))) return attempt;
      if (!isTransientError(err) || attempt >= options.retry.maxAttempts) {
        await sink?.abandon();
        throw err;
      }
      await sleep(backoff(options.retry, attempt));
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
        const attempts = await runStep(client, step, options);
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

/** The objects of one phase of apply: those that run before the guests, or the others after them. */
export function objectsOfPhase(objects: ObjectPlan[], phase: "before-guests" | "after-guests"): ObjectPlan[] {
  return objects.filter((o) => (o.phase === "before-guests") === (phase === "before-guests"));
}

/** Every object given, one after the other (a handful of cluster-wide calls). */
export async function applyObjects(client: PveClient, objects: ObjectPlan[], options: ObjectApplyOptions): Promise<ObjectReport[]> {
  const reports: ObjectReport[] = [];
  for (const object of objects) reports.push(await applyObject(client, object, options));
  return reports;
}
