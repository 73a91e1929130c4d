// `pvectl apply -f SPEC` (a fresh plan) or `pvectl apply --plan FILE` (a saved plan, refused
// if any guest changed since). Guard rails: --allow-data-loss, --allow-restart; confirmation on
// a terminal, --yes for automation.
import type { Command } from "commander";
import { PveClient } from "../../api/index.js";
import { buildPlan, DEFAULT_SHUTDOWN_TIMEOUT, planData } from "../../engine/plan.js";
import { checkSavedPlan, loadPlan, SavedPlanError } from "../../engine/saved-plan.js";
import { resolveConnection } from "../../sources/connections.js";
import { loadSpecFiles } from "../../sources/spec/index.js";
import { type ApplyFlags, runApply } from "./apply-flow.js";
import { createWaitProgress, LOCK_WAIT_FLAG } from "./lock-wait.js";
import { openSpecTarget, type PlanFlags, positiveInt } from "./plan.js";

interface Flags extends ApplyFlags, PlanFlags {
  plan?: string;
}

export function registerApplyCommand(program: Command): void {
  program
    .command("apply")
    .description("make the cluster match the spec: plan, confirm, run the steps (or apply a saved plan)")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option("--plan <file>", "apply a plan saved by `pvectl plan --out FILE` (refused if the cluster changed since)")
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--allow-data-loss", "run data-loss-risk steps (destroy, disk delete)")
    .option("--allow-restart", "run service-impact steps (stop, reboot, changes that need a reboot)")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "the report as JSON (progress is not printed)")
    .option("--concurrency <n>", "guests worked on at once per node (default: sized to the node)")
    .option("--shutdown-timeout <seconds>", "graceful shutdown time of stop steps", String(DEFAULT_SHUTDOWN_TIMEOUT))
    .option("--force-stop", "stop steps force the guest off after the shutdown timeout")
    .option(...LOCK_WAIT_FLAG)
    .addHelpText("after", "\nExit codes: 0 converged, 1 failure (or preflight refused), 3 steps left pending by the guard rails.")
    .action(async (files: string[], flags: Flags) => {
      const perNode = flags.concurrency !== undefined ? { perNodeConcurrency: positiveInt(flags.concurrency, "--concurrency", 4) } : {};
      if (flags.plan !== undefined) {
        const saved = await loadPlan(flags.plan);
        const spec = saved.connection !== undefined ? await loadSpecFiles(saved.specFiles) : { connections: {} };
        const client = new PveClient(resolveConnection(spec, saved.connection));
        try {
          const { problems, cluster } = await checkSavedPlan(client, saved.plan);
          if (problems.length > 0) throw new SavedPlanError(flags.plan, problems);
          await runApply(client, saved.plan, flags, { cluster, ...perNode }, "apply");
        } finally {
          await client.close();
        }
        return;
      }
      const target = await openSpecTarget(files, flags, "apply");
      try {
        const plan = await buildPlan(target.client, target.desired, {
          shutdownTimeoutSeconds: positiveInt(flags.shutdownTimeout, "--shutdown-timeout", DEFAULT_SHUTDOWN_TIMEOUT),
          forceStop: flags.forceStop ?? false,
          ...createWaitProgress(flags.json),
        });
        await runApply(target.client, planData(plan), flags, { cluster: plan.context.cluster, live: plan.context.live, desired: target.desired, ...perNode }, "apply");
      } finally {
        await target.client.close();
      }
    });
}
