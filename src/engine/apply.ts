// apply = run a plan's steps. Guard rails first (preflight problems stop everything;
// data-loss-risk needs allowDataLoss; service-impact needs allowRestart, otherwise those steps
// are left pending and reported: guard-rails.ts). Then an executor with per-node concurrency
// runs each guest's steps in order (apply-guest.ts); one guest's failure does not stop the
// others. Every guest ends with a report in one shape.
import type { PveClient } from "../api/index.js";
import type { DesiredGuest, LiveGuest } from "../resources/index.js";
import { type ApplyProgress, applyGuest, type GuestApply, notAttempted } from "./apply-guest.js";
import { clonesWaitFor, templatesWaitFor } from "./clone-order.js";
import { type ClusterSnapshot, readCluster } from "./cluster.js";
import { PreflightFailedError } from "./errors.js";
import type { GuardRails } from "./guard-rails.js";
import { KeyedLimiter } from "./limiter.js";
import { defaultPerNode, readMaxWorkers } from "./node-concurrency.js";
import type { ApplyReport, GuestReport } from "./report.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry-policy.js";
import { TaskWatcher } from "../api/task-watcher.js";
import type { GuestPlan, Plan } from "../plan/types.js";
import { reportNameTwins } from "./name-twins.js";
import { VmidAllocator, type VmidPolicy } from "./vmid.js";
import { applyObjects, type ObjectEvent, objectsOfPhase } from "./apply-objects.js";
import type { SecretPrinter } from "./secret-sink.js";
import type { DesiredObjects } from "../resources/objects.js";
import { readBack, type ReadBackSpec } from "./verify.js";

import type { SecretResolver } from "./step-runner.js";

export type { ApplyEvent, SecretResolver } from "./step-runner.js";

export interface ApplyOptions extends GuardRails {
  /** Guests worked on at once per node; default: datacenter.cfg's max_workers, else sized from the node's CPUs (node-concurrency.ts). */
  perNodeConcurrency?: number;
  retry?: RetryPolicy;
  /** Wait this long on a lock another operation holds (`--lock-wait`); default: the retry policy's attempts. */
  lockWaitMs?: number;
  onEvent?: (event: ApplyProgress) => void;
  /** Progress of the plan's objects section (backup jobs ...). */
  onObjectEvent?: (event: ObjectEvent) => void;
  /** Prints a new API token's secret once (tokens planned with --show-secret); never called for secretFile tokens. */
  printSecret?: SecretPrinter;
  /** The cluster as the plan read it (saves a read); read again when absent. */
  cluster?: ClusterSnapshot;
  /** Live guests as the plan read them, for the report of guests without changes. */
  live?: Map<number, LiveGuest>;
  /**
   * The spec the plan was made from: at the end, every guest and object whose steps ran is
   * re-planned against a fresh read, and reported "not converged" if steps are left that this
   * run did not hold back (verify.ts).
   */
  desired?: DesiredGuest[];
  /** The spec's objects (backup jobs, access), read back like the guests when `desired` is given. */
  desiredObjects?: DesiredObjects;
  /** Reads the secrets create calls carry by reference (a container's root password); without it such a call fails. */
  resolveSecret?: SecretResolver;
  /** Poll interval bounds of the task watcher (tests use small ones). */
  taskPoll?: { minIntervalMs?: number; maxIntervalMs?: number };
  /** Where the vmids of guests without one come from (a range, ids in quarantine); default: PVE's nextid. */
  vmids?: VmidPolicy;
}

export { defaultPerNode } from "./node-concurrency.js";

export async function applyPlan(client: PveClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const started = performance.now();
  if (plan.preflightErrors.length > 0) throw new PreflightFailedError(plan.preflightErrors.map((p) => p.message));
  const needsCluster = plan.guests.some((g) => g.steps.length > 0);
  const cluster = options.cluster ?? (needsCluster ? await readCluster(client) : { nodes: new Map(), storages: [], guests: [] });
  // Only a run that works on guests, and is not given its concurrency, needs max_workers.
  const maxWorkers = options.perNodeConcurrency === undefined && needsCluster ? await readMaxWorkers(client) : undefined;
  const limiter = new KeyedLimiter((node) => options.perNodeConcurrency ?? defaultPerNode(cluster, node, maxWorkers));
  const run = sharedByGuests(client, cluster, limiter, options);
  const objectOptions = {
    guard: options,
    retry: options.retry ?? DEFAULT_RETRY,
    ...(options.onObjectEvent ? { emit: options.onObjectEvent } : {}),
    ...(options.printSecret ? { printSecret: options.printSecret } : {}),
  };
  // Objects the guests need (a pool they join, the spec's access objects) first.
  const early = plan.objects === undefined ? [] : await applyObjects(client, objectsOfPhase(plan.objects, "before-guests"), objectOptions);
  const guests = await runGuests(
    plan.guests,
    async (guest) => {
      // A guest with nothing to run takes no per-node slot.
      const report =
        guest.steps.length === 0 || guest.errors.length > 0
          ? await applyGuest(run, guest)
          : await limiter.run(guest.node, () => applyGuest(run, guest));
      run.emit({ type: "guest-done", report });
      return report;
    },
    run,
  );
  await reportNameTwins(
    client,
    plan.guests.map((guest, i) => ({ guest, report: guests[i]! })),
  );
  // The other objects after guests: a new job may name guests this apply just created, a pool
  // is deleted once its guests left it.
  const objects =
    plan.objects === undefined
      ? undefined
      : [...early, ...(await applyObjects(client, objectsOfPhase(plan.objects, "after-guests"), objectOptions))];
  if (options.desired !== undefined) await readBack(client, plan, { guests, ...(objects ? { objects } : {}) }, readBackSpec(options));
  return {
    target: plan.target,
    guests,
    ...(objects !== undefined ? { objects } : {}),
    elapsedSeconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    ok:
      guests.every((g) => g.result !== "failed" && g.result !== "partial" && g.error === undefined) &&
      (objects ?? []).every((o) => o.result !== "failed" && o.error === undefined),
  };
}

/**
 * Every guest side by side, but a guest only once the guests it depends on ran all their steps:
 * a clone after the source this plan creates or converts (it was planned against the source as
 * those steps leave it), a destroyed template after the destroys of its linked clones (PVE
 * refuses it while a clone's disk exists). One that did not come out as planned leaves the
 * guest waiting for it not attempted, saying why. The waiting happens outside the per-node
 * slots, so no wait holds a slot the other needs.
 */
async function runGuests(guests: GuestPlan[], apply: (guest: GuestPlan) => Promise<GuestReport>, run: GuestApply): Promise<GuestReport[]> {
  const waits = waitsAtApply(guests);
  const reports = new Map<string, Promise<GuestReport>>();
  const start = async (guest: GuestPlan, wait: Wait): Promise<GuestReport> => {
    for (const report of await Promise.all(wait.on.map((key) => reports.get(key)!))) {
      const why = shortfall(report);
      if (why === undefined) continue;
      const skipped = notAttempted(run, guest, wait.notAttempted(report.key, why));
      run.emit({ type: "guest-done", report: skipped });
      return skipped;
    }
    return apply(guest);
  };
  // Guests that wait for none first, so each waiting guest finds the promises of those it waits for
  // (neither a clone source nor a linked clone being destroyed waits for anything itself).
  for (const guest of guests) if (!waits.has(guest.key)) reports.set(guest.key, apply(guest));
  for (const guest of guests) {
    const wait = waits.get(guest.key);
    if (wait !== undefined) reports.set(guest.key, start(guest, wait));
  }
  return Promise.all(guests.map((g) => reports.get(g.key)!));
}

interface Wait {
  /** The keys of the guests whose steps must all have run first. */
  on: string[];
  /** The error of the waiting guest when one of them (`key`) fell short (`why`). */
  notAttempted(key: string, why: string): string;
}

function waitsAtApply(guests: GuestPlan[]): Map<string, Wait> {
  const out = new Map<string, Wait>();
  for (const [clone, source] of clonesWaitFor(guests))
    out.set(clone, { on: [source], notAttempted: (key, why) => `not attempted: its clone source ${key} ${why}` });
  for (const [template, clones] of templatesWaitFor(guests)) {
    out.set(template, {
      on: clones,
      notAttempted: (key, why) =>
        `not attempted: its linked clone ${key} ${why}, and PVE refuses to destroy a template while a linked clone's disk exists`,
    });
  }
  return out;
}

/** Why a report says a guest is not as planned (undefined: every step ran and it matches its spec). */
function shortfall(report: GuestReport): string | undefined {
  if (report.error !== undefined) return `failed (${report.error})`;
  const notDone = report.steps.filter((s) => s.status !== "done");
  if (notDone.length > 0) return `did not run as planned (${notDone.map((s) => `${s.summary}: ${s.reason ?? s.status}`).join("; ")})`;
  return undefined;
}

/** What every guest of this apply shares: the task watcher, the vmid allocator, the retry policy, the guard rails. */
function sharedByGuests(client: PveClient, cluster: ClusterSnapshot, limiter: KeyedLimiter, options: ApplyOptions): GuestApply {
  const emit = (event: ApplyProgress) => options.onEvent?.(event);
  const deps = {
    client,
    watcher: new TaskWatcher(client, options.taskPoll ?? {}),
    allocator: new VmidAllocator(
      client,
      cluster.guests.map((g) => g.vmid),
      options.vmids,
    ),
    retry: options.retry ?? DEFAULT_RETRY,
    emit,
    ...(options.lockWaitMs !== undefined ? { lockWaitMs: options.lockWaitMs } : {}),
    ...(options.resolveSecret !== undefined ? { resolveSecret: options.resolveSecret } : {}),
    // Every guest with steps runs inside limiter.run(node): waiting on a lock gives its slot up.
    idle: <T>(node: string, fn: () => Promise<T>) => limiter.outside(node, fn),
  };
  return { client, deps, emit, guard: options, live: options.live };
}

function readBackSpec(options: ApplyOptions): ReadBackSpec {
  return { guests: options.desired ?? [], ...(options.desiredObjects !== undefined ? { objects: options.desiredObjects } : {}) };
}
