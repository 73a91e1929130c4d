// What apply and destroy share: guard-rail notice, confirmation, progress, final report, exit code.
import { createInterface } from "node:readline/promises";
import { type ApplyPlanOptions, applyPlan } from "../../app/apply-plan.js";
import { type ApplyReport, DEFERRED_REBOOT, PreflightFailedError, refusal, skipReasons } from "../../app/apply-results.js";
import type { PveClient } from "../../app/connection.js";
import type { PlannedSpec } from "../../app/plan-spec.js";
import { safeLine } from "../../util/safe-text.js";
import { paletteFor, renderPlan } from "../render/plan.js";
import { progressLine, renderReport } from "../render/report.js";
import { lockWaitOption } from "./lock-wait.js";
import { UsageError } from "./plan.js";

export interface ApplyFlags {
  allowDataLoss?: boolean;
  allowHostAccess?: boolean;
  allowSecretReset?: boolean;
  allowRestart?: boolean;
  deferRestart?: boolean;
  yes?: boolean;
  json?: boolean;
  concurrency?: string;
  /** --lock-wait, in milliseconds (parsed by commander). */
  lockWait?: number;
}

/** Flags of the guard rails that have one severity each (apply, netbox sync). */
export const ALLOW_HOST_ACCESS_FLAG = [
  "--allow-host-access",
  "run host-access steps: a container's host bind mount or devN, a VM's args or a hookscript (added, changed or removed); they reach the hypervisor",
] as const;
export const ALLOW_SECRET_RESET_FLAG = [
  "--allow-secret-reset",
  "run secret-reset steps: an API token that exists while its secretFile holds no secret (missing, empty, cut off: a run killed before writing it) is deleted and made again with a new secret in that file and its ACL entries granted again; the old secret stops working",
] as const;

/** Exit codes: 0 converged, 1 a guest failed or the preflight refused, 3 steps left pending by the guard rails. */
export const EXIT_PENDING = 3;

/** The guard rails of the flags; --allow-restart and --defer-restart contradict each other. */
export function guardOptions(
  flags: ApplyFlags,
): Required<Pick<ApplyPlanOptions, "allowDataLoss" | "allowHostAccess" | "allowSecretReset" | "allowRestart" | "deferRestart">> {
  if (flags.allowRestart && flags.deferRestart) {
    throw new UsageError(
      "--allow-restart and --defer-restart contradict each other (reboot now, or leave the reboot for later)",
      "give --allow-restart to reboot the guests now, or --defer-restart to write the changes as pending and reboot them later",
    );
  }
  return {
    allowDataLoss: flags.allowDataLoss ?? false,
    allowHostAccess: flags.allowHostAccess ?? false,
    allowSecretReset: flags.allowSecretReset ?? false,
    allowRestart: flags.allowRestart ?? false,
    deferRestart: flags.deferRestart ?? false,
  };
}

/** Asks on the terminal; only a typed `yes` confirms. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return answer.trim().toLowerCase() === "yes";
  } finally {
    rl.close();
  }
}

export async function runApply(
  client: PveClient,
  planned: PlannedSpec,
  flags: ApplyFlags,
  options: Pick<ApplyPlanOptions, "perNodeConcurrency" | "verifyConvergence" | "secretPolicy">,
  verb: "apply" | "destroy" | "snapshot",
  /** More to say in --json output, next to the plan or report (the guests a selection skipped). */
  extraJson: Record<string, unknown> = {},
): Promise<ApplyReport | undefined> {
  const { plan } = planned;
  const out = process.stdout;
  const err = process.stderr;
  const palette = paletteFor(out);
  if (!flags.json) out.write(renderPlan(plan, palette));
  if (plan.preflightErrors.length > 0) {
    const failure = new PreflightFailedError(plan.preflightErrors.map((p) => p.message));
    if (flags.json) out.write(`${JSON.stringify({ ok: false, plan, error: failure.message, ...extraJson }, null, 2)}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const guard = guardOptions(flags);
  let runnable = 0;
  let refused = 0;
  let deferred = 0;
  for (const guest of plan.guests) {
    if (guest.errors.length > 0) continue;
    const reasons = skipReasons(guest, guard);
    const deferredReboots = [...reasons.values()].filter((r) => r === DEFERRED_REBOOT).length;
    refused += reasons.size - deferredReboots;
    runnable += guest.steps.length - reasons.size;
    if (deferredReboots > 0) deferred += guest.steps.filter((s) => s.pendingUntilReboot && !reasons.has(s.id)).length;
  }
  for (const object of plan.objects ?? []) {
    if (object.errors.length > 0) continue;
    const held = object.steps.filter((s) => refusal(s, guard) !== undefined).length;
    refused += held;
    runnable += object.steps.length - held;
  }
  if (refused > 0 && !flags.json) {
    err.write(
      palette.yellow(
        `${refused} step(s) will not run and stay pending: data-loss-risk steps need --allow-data-loss, service-impact steps need --allow-restart, ` +
          "host-access steps need --allow-host-access, secret-reset steps need --allow-secret-reset.\n",
      ),
    );
  }
  if (deferred > 0 && !flags.json) {
    err.write(
      palette.yellow(
        `${deferred} change(s) will be written as PVE pending changes and wait for each guest's next reboot (--defer-restart); no guest is rebooted.\n`,
      ),
    );
  }
  if (runnable > 0 && !flags.yes) {
    if (!process.stdin.isTTY) {
      throw new UsageError(
        `refusing to ${verb} without confirmation (${runnable} step(s) would run) and there is no terminal to ask on`,
        "review the plan, then run again with --yes",
      );
    }
    const ok = await confirm(
      `\n${verb === "destroy" ? "Destroy" : "Apply"} ${runnable} step(s) on ${plan.target}? Type 'yes' to continue: `,
    );
    if (!ok) {
      err.write("Cancelled; nothing was changed.\n");
      // --json answers with one document in every outcome, a refused confirmation included.
      if (flags.json)
        out.write(
          `${JSON.stringify({ ok: false, cancelled: true, plan, error: "cancelled at the confirmation; nothing was changed", ...extraJson }, null, 2)}\n`,
        );
      process.exitCode = 1;
      return undefined;
    }
  }
  const progressPalette = paletteFor(err);
  const total = plan.guests.length;
  let finished = 0;
  const report = await applyPlan(client, planned, {
    ...guard,
    ...options,
    // A token planned with --show-secret: its secret, once, on stdout (stderr with --json, which stays secret-free).
    printSecret: (label, secret) =>
      (flags.json ? err : out).write(
        `secret of ${safeLine(label.split("/")[0]?.replace(/^access-token:/, "API token ") ?? label)}: ${secret}\n`,
      ),
    ...lockWaitOption(flags.lockWait),
    onEvent: (event) => {
      if (flags.json) return;
      if (event.type === "guest-done") {
        finished += 1;
        // On a terminal the running count is the progress; in CI logs the step lines carry it.
        if (err.isTTY)
          err.write(`${progressPalette.bold(`[${finished}/${total}]`)} ${safeLine(event.report.key)}: ${event.report.result}\n`);
        return;
      }
      const line = progressLine(event, progressPalette);
      if (line) err.write(`${line}\n`);
    },
  });
  if (flags.json) out.write(`${JSON.stringify({ ...report, ...extraJson }, null, 2)}\n`);
  else out.write(`\n${renderReport(report, palette)}`);
  const pending = report.guests.some((g) => g.pending.length > 0) || (report.objects ?? []).some((o) => o.pending.length > 0);
  process.exitCode = report.ok ? (pending ? EXIT_PENDING : 0) : 1;
  return report;
}
