// `pvectl snapshot create|list|delete|rollback|prune`: snapshots over a selection of guests.
// Each write command is a plan (severities, preflight) shown before anything runs, and runs
// through the same executor as apply (per-node limits, task waits, retries, report per guest).
import type { Command } from "commander";
import { DEFAULT_MIN_FREE_PERCENT, planSnapshots, type SnapshotOperation, snapshotNameProblem } from "../../app/snapshots.js";
import { paletteFor, renderPlan } from "../render/plan.js";
import { selectionJson, selectionNotes } from "../render/selection.js";
import { type ApplyFlags, guardOptions, runApply } from "./apply-flow.js";
import { LOCK_WAIT_FLAG } from "./lock-wait.js";
import { planExitCode, positiveInt, UsageError } from "./plan.js";
import { addSelectionOptions, openSelection, type SelectionFlags } from "./selection-flags.js";
import { registerSnapshotListCommand } from "./snapshot-list.js";

interface WriteFlags extends ApplyFlags, SelectionFlags {
  dryRun?: boolean;
  detailedExitcode?: boolean;
  minFree?: string;
}

const GUARD_HELP =
  "\nGuard rails: data-loss-risk steps (delete, prune, rollback) run only with --allow-data-loss; service-impact steps\n" +
  "(stopping a running guest for a rollback, pausing a VM to save its RAM) only with --allow-restart.\n" +
  "Guests pvectl did not create are skipped (and listed) unless named and --include-foreign is given; templates are skipped.\n" +
  "\nExit codes: 0 done, 1 failure (or the preflight refused), 3 steps left pending by the guard rails;\n" +
  "with --dry-run and --detailed-exitcode: 0 nothing to do, 2 steps to run, 1 errors.";

/** The options every write command shares, after the selection flags. */
function addWriteOptions(command: Command): Command {
  return addSelectionOptions(command)
    .option("--allow-data-loss", "run data-loss-risk steps (deleting a snapshot, rolling back)")
    .option("--allow-restart", "run service-impact steps (stop a running guest for a rollback, pause a VM for --vmstate)")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "the report (or with --dry-run the plan) as JSON, with the skipped and not-found guests")
    .option("--dry-run", "print the plan and stop (nothing changes)")
    .option("--detailed-exitcode", "with --dry-run: exit 0 when there is nothing to do, 2 when there are steps, 1 on errors")
    .option("--concurrency <n>", "guests worked on at once per node (default: the cluster's max_workers, else sized to the node's CPUs)")
    .option(...LOCK_WAIT_FLAG)
    .addHelpText("after", GUARD_HELP);
}

/** The snapshot name argument, refused before anything is read when PVE would refuse it. */
function checkedName(name: string): string {
  const problem = snapshotNameProblem(name);
  if (problem !== undefined) throw new UsageError(problem, "e.g. pvectl snapshot create before-upgrade --tag web");
  return name;
}

/** `--min-free 10%` (or `10`): a percentage from 0 to 100. */
export function parseMinFree(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MIN_FREE_PERCENT;
  const n = Number(value.trim().replace(/%$/, ""));
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100) {
    throw new UsageError(`--min-free must be a percentage from 0 to 100, got '${value}'`, "e.g. --min-free 10%");
  }
  return n;
}

async function runSnapshotOperation(flags: WriteFlags, op: SnapshotOperation, command: string): Promise<void> {
  guardOptions(flags);
  const minFreePercent = parseMinFree(flags.minFree);
  const perNode = flags.concurrency !== undefined ? { perNodeConcurrency: positiveInt(flags.concurrency, "--concurrency", 4) } : {};
  const { client, selector } = await openSelection(flags, `snapshot ${command}`);
  try {
    const planned = await planSnapshots(client, selector, op, { minFreePercent });
    const extra = selectionJson(planned.selection);
    if (!flags.json) process.stdout.write(selectionNotes(planned.selection, paletteFor(process.stdout)));
    if (flags.dryRun) {
      if (flags.json) process.stdout.write(`${JSON.stringify({ plan: planned.plan, ...extra }, null, 2)}\n`);
      else process.stdout.write(renderPlan(planned.plan, paletteFor(process.stdout)));
      process.exitCode = planExitCode(planned.plan, flags.detailedExitcode ?? false);
      return;
    }
    await runApply(client, { plan: planned.plan, desired: [], context: planned.context }, flags, perNode, "snapshot", extra);
  } finally {
    await client.close();
  }
}

export function registerSnapshotCommand(program: Command): void {
  const snapshot = program
    .command("snapshot")
    .description("take, list, delete, roll back and prune snapshots of selected guests (VMs and containers)");

  addWriteOptions(
    snapshot
      .command("create")
      .description("take a snapshot NAME of each selected guest (configuration; with --vmstate of a running VM, service-impact)")
      .argument("<name>", "the snapshot's name: a letter first, then letters, digits, '_' or '-' (2 to 40 characters)"),
  )
    .option("--vmstate", "VMs: also save the RAM of a running VM (it pauses while the memory is written; needs --allow-restart)")
    .option("--description <text>", "the snapshot's description")
    .option(
      "--min-free <percent>",
      `refuse when a thin pool (lvmthin, zfspool) holding a volume has less free space than this (default: ${DEFAULT_MIN_FREE_PERCENT}%)`,
    )
    .addHelpText(
      "after",
      "\nExample: pvectl snapshot create before-upgrade --tag web --yes   (NAME first: --name and -f take several values)\n" +
        "A run that stopped part way is finished by running the same command again: guests that already have NAME from it are reported done.",
    )
    .action(async (name: string, flags: WriteFlags & { vmstate?: boolean; description?: string }) => {
      await runSnapshotOperation(
        flags,
        {
          action: "create",
          name: checkedName(name),
          ...(flags.vmstate ? { vmstate: true } : {}),
          ...(flags.description !== undefined ? { description: flags.description } : {}),
        },
        "create",
      );
    });

  registerSnapshotListCommand(snapshot);

  addWriteOptions(
    snapshot
      .command("delete")
      .description("delete the snapshot NAME of each selected guest (data-loss-risk: needs --allow-data-loss)")
      .argument("<name>", "the snapshot to delete (every selected guest must have it)"),
  ).action(async (name: string, flags: WriteFlags) => {
    await runSnapshotOperation(flags, { action: "delete", name: checkedName(name) }, "delete");
  });

  addWriteOptions(
    snapshot
      .command("rollback")
      .description("roll each selected guest back to its snapshot NAME (data-loss-risk; a running guest is stopped first: service-impact)")
      .argument("<name>", "the snapshot to roll back to (every selected guest must have it)"),
  )
    .option("--start", "start the guest after the rollback")
    .action(async (name: string, flags: WriteFlags & { start?: boolean }) => {
      await runSnapshotOperation(
        flags,
        { action: "rollback", name: checkedName(name), ...(flags.start ? { start: true } : {}) },
        "rollback",
      );
    });

  addWriteOptions(
    snapshot
      .command("prune")
      .description(
        "delete each selected guest's snapshots named with --prefix beyond the newest --keep (data-loss-risk, each snapshot named)",
      ),
  )
    .requiredOption("--keep <n>", "how many of the newest snapshots with the prefix to keep (0 or more)")
    .option(
      "--prefix <prefix>",
      "only snapshots whose name starts with this are pruned; others are never touched (default: every snapshot)",
    )
    .action(async (flags: WriteFlags & { keep: string; prefix?: string }) => {
      await runSnapshotOperation(
        flags,
        { action: "prune", retention: { keep: keepCount(flags.keep), prefix: flags.prefix ?? "" } },
        "prune",
      );
    });
}

function keepCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--keep must be a whole number of snapshots (0 or more), got '${value}'`, "e.g. --keep 3");
  return n;
}
