// Runs the objects section of a plan (backup jobs, access objects ...): each object's steps in
// order, under the same guard rails as guests. Calls go by the object's id. A transient
// failure is retried; a call whose answer was lost is first resolved by reading the object
// back through its family (a create that landed is done, never sent again; a delete whose
// object is gone is done). A call whose answer holds a one-time secret (a new API token)
// delivers it to its sink, which is opened before the call (secret-sink.ts).
import { resolveCall, resolvePath } from "../plan/resolve-call.js";
import { revealedSecret } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { ApiCall, ObjectPlan, Step } from "../plan/types.js";
import { afterSecretDeliveredText, lostSecretText, objectLanded } from "../resources/objects.js";
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

/** After a failure that may have landed: is the object now as this call wanted it? */
async function landed(client: PveClient, call: ApiCall): Promise<boolean> {
  if (call.intent.kind !== "object") return false;
  return objectLanded(client, call.intent);
}

const isCreate = (call: ApiCall) => call.intent.kind === "object" && call.intent.op === "object-create";

/**
 * A secret-revealing call whose answer was lost after it landed: nobody has the secret, so the
 * object is useless. It is removed again (nobody can have used it) and the step fails, so the
 * next apply creates it anew; a read-back, never a resend, decided that it landed. The family
 * words the message (what else of the step did not run).
 */
async function lostSecret(client: PveClient, call: ApiCall, step: Step, rest: ApiCall[]): Promise<Error> {
  const removed = await client.request("DELETE", resolvePath(call), {}).then(
    () => true,
    () => false,
  );
  const what = step.summary.split(":")[0]!;
  return new Error(lostSecretText(call, what, removed, rest));
}

/** A call after the secret was delivered failed: the object and its file are fine, what is left is said. */
function afterDelivery(err: unknown, step: Step, secretCall: ApiCall, rest: ApiCall[]): Error {
  const text = afterSecretDeliveredText(secretCall, errorText(err), step.id, rest);
  if (text === undefined) return err instanceof Error ? err : new Error(errorText(err));
  return new Error(text);
}

/** Sends one call; a secret in its answer goes to the sink opened before it, before anything else happens. */
async function send(client: PveClient, call: ApiCall, sink: OpenSink | undefined): Promise<void> {
  const { method, path, params } = resolveCall(call);
  const answer = await client.request(method, path, params);
  if (sink === undefined || call.revealsSecret === undefined) return;
  const secret = revealedSecret(answer, call.revealsSecret.field);
  if (secret === undefined) throw new Error(`${path}: PVE's answer holds no ${call.revealsSecret.field}`);
  client.maskSecret(secret);
  await sink.deliver(secret).catch((err: unknown) => {
    throw new SecretDeliveryError(errorText(err));
  });
}

/** The object was made but its secret could not be kept: handled as a lost answer. */
class SecretDeliveryError extends Error {}

/**
 * One step's calls in order, each retried while that is safe; a retry resumes at the call that
 * failed (a secret reset never deletes again the token it just made anew). A create carries the
 * object's id, so PVE refuses a second one (`already exists`): after any failure of a create the
 * object is read back first, and finding it as the call makes it means the request landed.
 */
async function runStep(client: PveClient, step: Step, options: ObjectApplyOptions): Promise<number> {
  const secretCall = step.calls.findIndex((c) => c.revealsSecret !== undefined);
  const revealed = step.calls[secretCall]?.revealsSecret;
  const sink = revealed ? await openSink(revealed.to, step.id, options.printSecret) : undefined;
  let next = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      for (; next < step.calls.length; next++) await send(client, step.calls[next]!, next === secretCall ? sink : undefined);
      return attempt;
    } catch (err) {
      const call = step.calls[next]!;
      const rest = step.calls.slice(next + 1);
      if (sink !== undefined && next === secretCall) {
        // Only an answer that may have been lost is read back: a definite refusal made nothing of ours.
        const made = err instanceof SecretDeliveryError || (mayHaveApplied(err) && (await landed(client, call).catch(() => false)));
        if (made) {
          await sink.abandon();
          throw await lostSecret(client, call, step, rest);
        }
      } else if ((isCreate(call) || mayHaveApplied(err)) && (await landed(client, call).catch(() => false))) {
        next++;
        if (next === step.calls.length) return attempt;
        attempt--;
        continue;
      }
      if (!isTransientError(err) || attempt >= options.retry.maxAttempts) {
        await sink?.abandon();
        throw secretCall >= 0 && next > secretCall ? afterDelivery(err, step, step.calls[secretCall]!, [call, ...rest]) : err;
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
