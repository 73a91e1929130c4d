// apply = run a plan's steps. Guard rails first (preflight problems stop everything;
// data-loss-risk needs allowDataLoss; service-impact needs allowRestart, otherwise those steps
// are left pending and reported). Then an executor with per-node concurrency runs each guest's
// steps in order; one guest's failure does not stop the others. Every guest ends with a report
// in one shape.
import type { PveClient } from "../api/index.js";
import { liveVmFromConfig } from "../resources/qemu/read.js";
import type { DesiredVm, LiveVm } from "../resources/qemu/model.js";
import { type ClusterSnapshot, readCluster } from "./cluster.js";
import { PreflightFailedError } from "./errors.js";
import { KeyedLimiter } from "./limiter.js";
import { pendingKeys, rebootHeldBack } from "./pending-reboot.js";
import { type ApplyReport, devicesOf, type GuestReport, resultOf, type StepReport } from "./report.js";
import { DEFAULT_RETRY, errorText, type RetryPolicy } from "./retry-policy.js";
import { type ApplyEvent, GuestRunner } from "./step-runner.js";
import { TaskWatcher } from "../api/task-watcher.js";
import type { GuestPlan, Plan, Step } from "../plan/types.js";
import { reportNameTwins } from "./name-twins.js";
import { notConverged } from "./verify.js";
import { VmidAllocator } from "./vmid.js";

export type { ApplyEvent } from "./step-runner.js";

export interface ApplyOptions {
  allowDataLoss?: boolean;
  allowRestart?: boolean;
  /**
   * Write changes that only take effect at the next reboot now, as PVE pending changes, and
   * leave the reboot to the operator (a maintenance window). `allowRestart` wins: it reboots.
   * Steps that disturb the running guest now (stop, a NIC hot-unplug) still need allowRestart.
   */
  deferRestart?: boolean;
  /** Guests worked on at once per node; default sized to the cluster (see defaultPerNode). */
  perNodeConcurrency?: number;
  retry?: RetryPolicy;
  /** Wait this long on a lock another operation holds (`--lock-wait`); default: the retry policy's attempts. */
  lockWaitMs?: number;
  onEvent?: (event: ApplyEvent | { type: "guest-done"; report: GuestReport }) => void;
  /** The cluster as the plan read it (saves a read); read again when absent. */
  cluster?: ClusterSnapshot;
  /** Live guests as the plan read them, for the report of guests without changes. */
  live?: Map<number, LiveVm>;
  /**
   * The spec the plan was made from: each guest whose steps all ran is re-planned against a
   * fresh read at the end, and reported "not converged" if steps are left (verify.ts).
   */
  desired?: DesiredVm[];
  /** Poll interval bounds of the task watcher (tests use small ones). */
  taskPoll?: { minIntervalMs?: number; maxIntervalMs?: number };
}

/**
 * Guests at once per node: half the node's CPUs, between 2 and 8. PVE runs each task as its
 * own worker process; a few more guests in flight than the node runs tasks at once keeps
 * its workers busy while pvectl polls.
 */
export function defaultPerNode(cluster: ClusterSnapshot, node: string): number {
  const cpus = cluster.nodes.get(node)?.maxcpu ?? 8;
  return Math.max(2, Math.min(8, Math.floor(cpus / 2)));
}

/** The reason a reboot is left out under --defer-restart (the CLI counts these apart from refusals). */
export const DEFERRED_REBOOT = "deferred (--defer-restart): reboot the guest in your maintenance window, or run with --allow-restart";

/** Why a step will not run with these options (undefined: it runs). */
export function refusal(step: Step, options: ApplyOptions): string | undefined {
  if (step.severity === "data-loss-risk" && !options.allowDataLoss) return "data-loss-risk: needs --allow-data-loss";
  if (step.severity !== "service-impact" || options.allowRestart) return undefined;
  if (options.deferRestart) {
    // Written to PVE's pending section, the guest keeps running as it is until its reboot.
    if (step.pendingUntilReboot) return undefined;
    if (step.action === "reboot") return DEFERRED_REBOOT;
    return "service-impact now (not a change that waits for a reboot): needs --allow-restart";
  }
  return "service-impact: needs --allow-restart";
}

/** Per step of a guest: the reason it is skipped, if it is. Destroys and stops pull their companions with them. */
export function skipReasons(guest: GuestPlan, options: ApplyOptions): Map<string, string> {
  const reasons = new Map<string, string>();
  const destroy = guest.steps.find((s) => s.action === "destroy");
  const destroyRefused = destroy ? refusal(destroy, options) : undefined;
  let stopRefused: string | undefined;
  for (const step of guest.steps) {
    const own = refusal(step, options);
    if (destroyRefused) reasons.set(step.id, step === destroy ? destroyRefused : `not run: the destroy is refused (${destroyRefused})`);
    else if (stopRefused) reasons.set(step.id, `not run: the guest was not stopped (${stopRefused})`);
    else if (own) {
      reasons.set(step.id, own);
      if (step.action === "stop") stopRefused = own;
    }
  }
  return reasons;
}

export async function applyPlan(client: PveClient, plan: Plan, options: ApplyOptions = {}): Promise<ApplyReport> {
  const started = performance.now();
  if (plan.preflightErrors.length > 0) throw new PreflightFailedError(plan.preflightErrors.map((p) => p.message));
  const needsCluster = plan.guests.some((g) => g.steps.length > 0);
  const cluster = options.cluster ?? (needsCluster ? await readCluster(client) : { nodes: new Map(), storages: [], guests: [] });
  const limiter = new KeyedLimiter((node) => options.perNodeConcurrency ?? defaultPerNode(cluster, node));
  const watcher = new TaskWatcher(client, options.taskPoll ?? {});
  const allocator = new VmidAllocator(
    client,
    cluster.guests.map((g) => g.vmid),
  );
  const emit = (event: ApplyEvent | { type: "guest-done"; report: GuestReport }) => options.onEvent?.(event);
  const deps = {
    client,
    watcher,
    allocator,
    retry: options.retry ?? DEFAULT_RETRY,
    emit,
    ...(options.lockWaitMs !== undefined ? { lockWaitMs: options.lockWaitMs } : {}),
    // Every guest with steps runs inside limiter.run(node): waiting on a lock gives its slot up.
    idle: <T>(node: string, fn: () => Promise<T>) => limiter.outside(node, fn),
  };

  // The final read-back: a guest whose steps all ran must now match its spec.
  const verifyConverged = async (report: GuestReport, guest: GuestPlan): Promise<void> => {
    const wanted = options.desired?.find((d) => d.key === guest.key);
    const allRan = report.steps.length > 0 && report.steps.every((s) => s.status === "done");
    if (!wanted || wanted.absent || !allRan || report.vmid === undefined || report.steps.some((s) => s.action === "destroy")) return;
    const why = await notConverged(client, wanted, { vmid: report.vmid, node: guest.node });
    if (why !== undefined) report.error = why;
  };

  const runGuest = async (guest: GuestPlan): Promise<GuestReport> => {
    const report: GuestReport = {
      key: guest.key,
      name: guest.name,
      ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}),
      node: guest.node,
      result: "unchanged",
      ...devicesOf(guest.vmid !== undefined ? options.live?.get(guest.vmid) : undefined),
      steps: [],
      pending: [],
      warnings: [...guest.warnings],
    };
    if (guest.errors.length > 0) {
      report.error = guest.errors.join("; ");
      report.result = "failed";
      report.steps = guest.steps.map((s) => stepReport(s, "not-run", "the guest has errors"));
      return report;
    }
    const reasons = skipReasons(guest, options);
    const runner = new GuestRunner(deps, guest);
    let failedAt = -1;
    for (const [i, step] of guest.steps.entries()) {
      const reason = reasons.get(step.id);
      if (reason) {
        report.steps.push(stepReport(step, "skipped", reason));
        report.pending.push(`${step.summary} (${reason})`);
        emit({ type: "step-skipped", guest, step, reason });
        continue;
      }
      emit({ type: "step-start", guest, step });
      try {
        const { warnings, attempts } = await runner.run(step);
        report.steps.push({ ...stepReport(step, "done"), attempts });
        report.warnings.push(...warnings);
        if (runner.vmid !== undefined) report.vmid = runner.vmid;
        emit({ type: "step-done", guest, step, ...(runner.vmid !== undefined ? { vmid: runner.vmid } : {}), warnings });
      } catch (err) {
        const message = errorText(err);
        report.steps.push(stepReport(step, "failed", message));
        report.error = `${step.summary}: ${message}`;
        emit({ type: "step-failed", guest, step, error: message });
        failedAt = i;
        break;
      }
    }
    if (failedAt >= 0) for (const step of guest.steps.slice(failedAt + 1)) report.steps.push(stepReport(step, "not-run", "an earlier step failed"));
    if (runner.vmid !== undefined) report.vmid = runner.vmid;
    if (report.vmid !== undefined && rebootHeldBack(report)) {
      const waiting = await pendingKeys(client, guest.node, report.vmid);
      if (waiting.keys.length > 0) report.pendingReboot = waiting.keys;
      if (waiting.warning) report.warnings.push(waiting.warning);
    }
    const ran = report.steps.some((s) => s.status === "done");
    const destroyed = report.steps.some((s) => s.status === "done" && s.action === "destroy");
    if (destroyed) {
      report.macs = {};
      report.volumes = {};
    } else if (ran && report.vmid !== undefined) {
      // One read after the changes: the MACs PVE generated and the volumes it allocated.
      try {
        const config = (await client.request("GET", `/nodes/${guest.node}/qemu/${report.vmid}/config`)) as Record<string, string | number>;
        Object.assign(report, devicesOf(liveVmFromConfig({ vmid: report.vmid, node: guest.node, status: "stopped" }, config)));
      } catch (err) {
        report.warnings.push(`could not read the final config: ${errorText(err).split("\n")[0]}`);
      }
    }
    await verifyConverged(report, guest);
    report.result = resultOf(report, guest.exists);
    return report;
  };

  const guests = await Promise.all(
    plan.guests.map(async (guest) => {
      const report =
        guest.steps.length === 0 || guest.errors.length > 0 ? await runGuest(guest) : await limiter.run(guest.node, () => runGuest(guest));
      emit({ type: "guest-done", report });
      return report;
    }),
  );
  await reportNameTwins(client, plan.guests.map((guest, i) => ({ guest, report: guests[i]! })));
  return {
    target: plan.target,
    guests,
    elapsedSeconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    ok: guests.every((g) => g.result !== "failed" && g.result !== "partial" && g.error === undefined),
  };
}

function stepReport(step: Step, status: StepReport["status"], reason?: string): StepReport {
  return {
    id: step.id,
    action: step.action,
    severity: step.severity,
    summary: step.summary,
    status,
    ...(reason !== undefined ? { reason } : {}),
  };
}
