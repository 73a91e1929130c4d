// One guest's part of an apply: its steps in order (a step the guard rails hold back is
// skipped; after a failure the rest do not run), then what its report says afterwards: the
// keys waiting for a reboot and the devices PVE allocated. Whether it now matches its spec is
// read back once the whole apply ran (verify.ts).
import type { PveClient } from "../api/index.js";
import type { GuestPlan, Step } from "../plan/types.js";
import { type GuestDevices, kindOf, type LiveGuest } from "../resources/index.js";
import { type GuardRails, skipReasons } from "./guard-rails.js";
import { pendingKeys, rebootHeldBack } from "./pending-reboot.js";
import { type GuestReport, resultOf, type StepReport } from "./report.js";
import { errorText } from "./retry-policy.js";
import { type ApplyEvent, GuestRunner, type RunnerDeps } from "./step-runner.js";

/** What an apply tells its caller as it goes: the runner's events, and each guest's report when it is done. */
export type ApplyProgress = ApplyEvent | { type: "guest-done"; report: GuestReport };

/** What every guest of one apply shares. */
export interface GuestApply {
  client: PveClient;
  deps: RunnerDeps;
  emit(event: ApplyProgress): void;
  guard: GuardRails;
  /** Live guests as the plan read them: the devices reported for a guest whose steps did not run. */
  live?: Map<number, LiveGuest>;
}

export async function applyGuest(run: GuestApply, guest: GuestPlan): Promise<GuestReport> {
  const report = newReport(guest, run.live);
  if (guest.errors.length > 0) return blocked(report, guest);
  const runner = new GuestRunner(run.deps, guest);
  await runSteps(run, guest, runner, report);
  if (runner.vmid !== undefined) report.vmid = runner.vmid;
  // Read where the guest is now: a migration of the plan may have moved it.
  const here = runner.node === guest.node ? guest : { ...guest, node: runner.node };
  report.node = runner.node;
  await readPendingReboot(run.client, here, report);
  await readDevices(run.client, here, report);
  report.result = resultOf(report, guest.exists);
  return report;
}

/** The guest's devices as read at plan time; none for a guest that does not exist yet. */
function devicesOf(guest: GuestPlan, live: LiveGuest | undefined): GuestDevices {
  return live ? kindOf(guest).devices(live) : { macs: {}, volumes: {} };
}

function newReport(guest: GuestPlan, live: Map<number, LiveGuest> | undefined): GuestReport {
  return {
    key: guest.key,
    name: guest.name,
    ...(guest.vmid !== undefined ? { vmid: guest.vmid } : {}),
    node: guest.node,
    result: "unchanged",
    ...devicesOf(guest, guest.vmid !== undefined ? live?.get(guest.vmid) : undefined),
    steps: [],
    pending: [],
    warnings: [...guest.warnings],
  };
}

/** A guest the plan found errors for: none of its steps run. */
function blocked(report: GuestReport, guest: GuestPlan): GuestReport {
  return notRun(report, guest, guest.errors.join("; "), "the guest has errors");
}

function notRun(report: GuestReport, guest: GuestPlan, error: string, reason: string): GuestReport {
  report.error = error;
  report.result = "failed";
  report.steps = guest.steps.map((s) => stepReport(s, "not-run", reason));
  return report;
}

/** A guest none of whose steps are attempted, for `why` (its clone source did not come out as planned). */
export function notAttempted(run: GuestApply, guest: GuestPlan, why: string): GuestReport {
  return notRun(newReport(guest, run.live), guest, why, why);
}

async function runSteps(run: GuestApply, guest: GuestPlan, runner: GuestRunner, report: GuestReport): Promise<void> {
  const reasons = skipReasons(guest, run.guard);
  for (const [i, step] of guest.steps.entries()) {
    const reason = reasons.get(step.id);
    if (reason) {
      report.steps.push(stepReport(step, "skipped", reason));
      report.pending.push(`${step.summary} (${reason})`);
      run.emit({ type: "step-skipped", guest, step, reason });
      continue;
    }
    if (!(await runStep(run, guest, runner, step, report))) {
      for (const rest of guest.steps.slice(i + 1)) report.steps.push(stepReport(rest, "not-run", "an earlier step failed"));
      return;
    }
  }
}

/** Runs one step and reports it; false when it failed. */
async function runStep(run: GuestApply, guest: GuestPlan, runner: GuestRunner, step: Step, report: GuestReport): Promise<boolean> {
  run.emit({ type: "step-start", guest, step });
  try {
    const { warnings, attempts, result } = await runner.run(step);
    report.steps.push({ ...stepReport(step, "done"), attempts, ...(result !== undefined ? { result } : {}) });
    report.warnings.push(...warnings);
    if (runner.vmid !== undefined) report.vmid = runner.vmid;
    run.emit({
      type: "step-done",
      guest,
      step,
      ...(runner.vmid !== undefined ? { vmid: runner.vmid } : {}),
      warnings,
      ...(result !== undefined ? { result } : {}),
    });
    return true;
  } catch (err) {
    const message = errorText(err);
    report.steps.push(stepReport(step, "failed", message));
    report.error = `${step.summary}: ${message}`;
    run.emit({ type: "step-failed", guest, step, error: message });
    return false;
  }
}

/** When the reboot was held back: the keys PVE keeps pending for it. */
async function readPendingReboot(client: PveClient, guest: GuestPlan, report: GuestReport): Promise<void> {
  if (report.vmid === undefined || !rebootHeldBack(report)) return;
  const waiting = await pendingKeys(client, guest, report.vmid);
  if (waiting.keys.length > 0) report.pendingReboot = waiting.keys;
  if (waiting.warning) report.warnings.push(waiting.warning);
}

/** The devices after the changes: none after a destroy, else one read for the MACs PVE generated and the volumes it allocated. */
async function readDevices(client: PveClient, guest: GuestPlan, report: GuestReport): Promise<void> {
  const ran = report.steps.some((s) => s.status === "done");
  const destroyed = report.steps.some((s) => s.status === "done" && s.action === "destroy");
  if (destroyed) {
    report.macs = {};
    report.volumes = {};
  } else if (ran && report.vmid !== undefined) {
    try {
      const kind = kindOf(guest);
      const config = await kind.read.config(client, guest.node, report.vmid);
      Object.assign(report, kind.devices(kind.fromConfig({ vmid: report.vmid, node: guest.node, status: "stopped" }, config)));
    } catch (err) {
      report.warnings.push(`could not read the final config: ${errorText(err).split("\n")[0]}`);
    }
  }
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
