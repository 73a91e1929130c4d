// `pvectl apply -f SPEC` (a fresh plan) or `pvectl apply --plan FILE` (a saved plan: recomputed
// from its spec files and the live cluster, and run only if equal to what was saved). Guard
// rails: --allow-data-loss, --allow-restart, --defer-restart; confirmation on a terminal, --yes
// for automation.
import type { Command } from "commander";
import type { PveClient } from "../../app/connection.js";
import { type PlannedSpec, planSpec } from "../../app/plan-spec.js";
import type { SpecTarget } from "../../app/spec-target.js";
import { paletteFor } from "../render/plan.js";
import { recomputeSavedPlan } from "../../app/saved-plan.js";
import { DEFAULT_SHUTDOWN_TIMEOUT } from "../../app/plan-model.js";
import { checkSpecFiles, loadPlan, SavedPlanError } from "../../app/saved-plan-file.js";
import { ALLOW_HOST_ACCESS_FLAG, ALLOW_SECRET_RESET_FLAG, type ApplyFlags, guardOptions, runApply } from "./apply-flow.js";
import { createWaitProgress, LOCK_WAIT_FLAG } from "./lock-wait.js";
import {
  addPlacementOptions,
  addSecretPolicyOptions,
  followPlacementJson,
  followPlacementText,
  openSpecTarget,
  type PlanFlags,
  planOptions,
  positiveInt,
  SHOW_SECRET_FLAG,
  specOf,
  UsageError,
} from "./plan.js";

interface Flags extends ApplyFlags, PlanFlags {
  plan?: string;
}

type PerNode = { perNodeConcurrency?: number };

/** apply re-plans every guest and object whose steps ran (engine/verify.ts), and reports it when it still differs from the spec. */
const VERIFY = { verifyConvergence: true };

/** Flags that would change the plan: with --plan, the saved plan's own spec and options apply. */
const PLAN_SHAPING = ["file", "connection", "shutdownTimeout", "forceStop", "adopt", "showSecret", "placement"] as const;

function refuseShapingFlags(files: string[], command: Command): void {
  const given = PLAN_SHAPING.filter((name) => command.getOptionValueSource(name) === "cli");
  if (files.length === 0 && given.length === 0) return;
  const named = [
    ...(files.length > 0 ? ["spec files"] : []),
    ...given.map((n) => `--${n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
  ];
  throw new UsageError(
    `--plan cannot be combined with ${named.join(", ")}: a saved plan is recomputed from the spec files and options it was made with`,
    "to change them, make a new plan: pvectl plan -f SPEC --out FILE",
  );
}

/** Runs the plan; with --follow-placement, the guests someone else moved follow the report (a key of the JSON document). */
async function applyAndFollow(
  client: PveClient,
  planned: PlannedSpec,
  flags: Flags,
  perNode: PerNode,
  secretPolicy: SpecTarget["policy"],
): Promise<void> {
  await runApply(client, planned, flags, { ...VERIFY, ...perNode, secretPolicy }, "apply", followPlacementJson(planned.plan, flags));
  if (!flags.json) process.stdout.write(followPlacementText(planned.plan, flags, paletteFor(process.stdout)));
}

async function applySavedPlan(file: string, flags: Flags, perNode: PerNode): Promise<void> {
  const saved = await loadPlan(file);
  const changed = await checkSpecFiles(saved.specFiles);
  if (changed.length > 0) throw new SavedPlanError(file, changed);
  const connection = saved.connection !== undefined ? { connection: saved.connection } : {};
  const target = await openSpecTarget([], { ...flags, file: saved.specFiles.map((f) => f.path), ...connection }, "apply");
  try {
    const { problems, ...planned } = await recomputeSavedPlan(target.client, saved, specOf(target));
    if (problems.length > 0) throw new SavedPlanError(file, problems);
    await applyAndFollow(target.client, planned, flags, perNode, target.policy);
  } finally {
    await target.client.close();
  }
}

export function registerApplyCommand(program: Command): void {
  addPlacementOptions(addSecretPolicyOptions(program.command("apply")))
    .description("make the cluster match the spec: plan, confirm, run the steps (or apply a saved plan)")
    .argument("[files...]", "spec files")
    .option("-f, --file <path...>", "spec file(s)")
    .option(
      "--plan <file>",
      "apply a plan saved by `pvectl plan --out FILE`: recomputed from its spec files and the cluster, refused unless equal to the saved one",
    )
    .option("--connection <name>", "only the guests of this spec connection")
    .option("--allow-data-loss", "run data-loss-risk steps (destroy, disk delete)")
    .option("--allow-restart", "run service-impact steps (stop, reboot, changes that need a reboot)")
    .option(...ALLOW_HOST_ACCESS_FLAG)
    .option(...ALLOW_SECRET_RESET_FLAG)
    .option(
      "--defer-restart",
      "write changes that need a reboot now as PVE pending changes, do not reboot; the report lists each guest's pending keys (exit 3)",
    )
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "the report as JSON (progress is not printed)")
    .option("--concurrency <n>", "guests worked on at once per node (default: the cluster's max_workers, else sized to the node's CPUs)")
    .option("--shutdown-timeout <seconds>", "graceful shutdown time of stop steps", String(DEFAULT_SHUTDOWN_TIMEOUT))
    .option("--force-stop", "stop steps force the guest off after the shutdown timeout")
    .option(
      "--adopt",
      "manage existing guests (by vmid) and objects (backup jobs, access) the spec names that pvectl did not create (adds the pvectl tag or marker); without it they are refused",
    )
    .option(...SHOW_SECRET_FLAG)
    .option(...LOCK_WAIT_FLAG)
    .addHelpText(
      "after",
      "\nGuard rails: data-loss-risk steps run only with --allow-data-loss; service-impact steps (stop, reboot, NIC hot-unplug,\n" +
        "changes that wait for a reboot, removing a backup job, ACL entry, API token, user or group) only with --allow-restart.\n" +
        "host-access steps (a container's host bind mount or devN, a VM's args, a hookscript: added, changed or removed) run\n" +
        "only with --allow-host-access; secret-reset steps (an existing token whose secretFile holds no secret, made anew: the old\n" +
        "secret stops working) only with --allow-secret-reset. With --defer-restart the changes that wait for a reboot\n" +
        "are written now as PVE pending changes and the guest is not rebooted (a maintenance window applies them).\n" +
        "\nA new API token's secret goes to its spec entry's secretFile (mode 0600, never over a file that holds something), or with\n" +
        "--show-secret is printed once; it is in no plan, report or log.\n" +
        "\nWith --plan, the spec files must be unchanged (SHA-256) and at the paths they had, relative to the\n" +
        "directory pvectl runs in; the plan must come from this pvectl version and cluster.\n" +
        "\nExit codes: 0 converged, 1 failure (or preflight refused), 3 steps left pending by the guard rails or changes\n" +
        "waiting for a reboot (--defer-restart).",
    )
    .action(async (files: string[], flags: Flags, command: Command) => {
      guardOptions(flags); // contradicting guard flags are refused before anything is read
      const perNode = flags.concurrency !== undefined ? { perNodeConcurrency: positiveInt(flags.concurrency, "--concurrency", 4) } : {};
      if (flags.plan !== undefined) {
        refuseShapingFlags(files, command);
        await applySavedPlan(flags.plan, flags, perNode);
        return;
      }
      const target = await openSpecTarget(files, flags, "apply");
      try {
        const planned = await planSpec(target.client, specOf(target), { ...planOptions(flags), ...createWaitProgress(flags.json) });
        await applyAndFollow(target.client, planned, flags, perNode, target.policy);
      } finally {
        await target.client.close();
      }
    });
}
