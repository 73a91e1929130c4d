// `pvectl backup run|list|prune|status` over selected guests (selection-flags.ts). run and
// prune are plans run through runApply (plan shown, confirmation or --yes, guard rails,
// report, exit codes); list and status only read.
import type { Command } from "commander";
import { backupStatus, listBackups } from "../../app/backup-list.js";
import {
  BACKUP_COMPRESSIONS,
  BACKUP_MODES,
  type BackupCompression,
  type BackupMode,
  KEEP_OPTIONS,
  notesTemplateProblem,
  type Retention,
} from "../../app/backup-options.js";
import { type PlannedOperation, planBackupPrune, planBackupRun } from "../../app/backup-plan.js";
import type { PveClient } from "../../app/connection.js";
import { renderArchives, renderUncovered } from "../render/backups.js";
import { paletteFor } from "../render/plan.js";
import { selectionJson, selectionNotes } from "../render/selection.js";
import { type ApplyFlags, runApply } from "./apply-flow.js";
import { LOCK_WAIT_FLAG } from "./lock-wait.js";
import { positiveInt, UsageError } from "./plan.js";
import { addSelectionOptions, openSelection, type SelectionFlags } from "./selection-flags.js";

interface RunFlags extends SelectionFlags, ApplyFlags {
  storage: string;
  mode: string;
  compress: string;
  notesTemplate?: string;
  protected?: boolean;
  perNode?: string;
}

interface PruneFlags extends SelectionFlags, ApplyFlags {
  storage: string;
  perNode?: string;
  [keep: string]: unknown;
}

interface ReadFlags extends SelectionFlags {
  storage?: string;
  json?: boolean;
}

/**
 * One backup per node at a time unless --per-node says otherwise: PVE's own backup jobs dump a
 * node's guests one after another, because a dump reads whole disks and writes a whole archive
 * (disk and network bound); two at once on a node slow each other and the node's other guests.
 */
const DEFAULT_PER_NODE = 1;

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")}, got '${value}'`, `e.g. ${flag} ${allowed[0]}`);
}

function writeOptions(command: Command): Command {
  return command
    .option("--per-node <n>", "backups (or deletes) running at once per node", String(DEFAULT_PER_NODE))
    .option("-y, --yes", "do not ask for confirmation")
    .option(
      "--json",
      "one JSON document on stdout: the report (or the plan's refusal, or the error), with the skipped and not-found guests",
    );
}

/**
 * Runs a backup plan. What the selection left out (guests skipped, names not found) goes on
 * stderr for a person, and into the one JSON document with --json, whatever the outcome.
 */
async function runPlanned(client: PveClient, planned: PlannedOperation, flags: ApplyFlags, perNode: number): Promise<void> {
  if (!flags.json) process.stderr.write(selectionNotes(planned.selection, paletteFor(process.stderr)));
  await runApply(client, planned, flags, { perNodeConcurrency: perNode }, "apply", selectionJson(planned.selection));
}

function registerRun(backup: Command): void {
  writeOptions(addSelectionOptions(backup.command("run")))
    .description("back up the selected guests: one vzdump per guest, paced per node, each archive in the report")
    .requiredOption("--storage <storage>", "the storage the archives go to (content 'backup')")
    .option(
      "--mode <mode>",
      `how a running guest is kept consistent: ${BACKUP_MODES.join(", ")} (suspend and stop interrupt it: need --allow-restart)`,
      "snapshot",
    )
    .option("--compress <algo>", `archive compression: ${BACKUP_COMPRESSIONS.join(", ")} (0: none)`, "zstd")
    .option("--notes-template <text>", "the archive's notes; PVE fills {{guestname}}, {{vmid}}, {{node}}, {{cluster}}")
    .option("--protected", "protect the archives from prune and deletion")
    .option("--allow-restart", "run suspend/stop mode backups of running guests (they are paused or stopped for the copy)")
    .option(...LOCK_WAIT_FLAG)
    .action(async (flags: RunFlags) => {
      const notesProblem = flags.notesTemplate !== undefined ? notesTemplateProblem(flags.notesTemplate) : undefined;
      if (notesProblem !== undefined) {
        throw new UsageError(
          `--notes-template: PVE refuses it: ${notesProblem}`,
          "write a new line as \\n; PVE fills {{guestname}}, {{vmid}}, {{node}}, {{cluster}}",
        );
      }
      const mode = oneOf<BackupMode>(flags.mode, BACKUP_MODES, "--mode");
      const compress = oneOf<BackupCompression>(flags.compress, BACKUP_COMPRESSIONS, "--compress");
      const perNode = positiveInt(flags.perNode, "--per-node", DEFAULT_PER_NODE);
      const { client, selector } = await openSelection(flags, "backup run");
      try {
        const options = {
          storage: flags.storage,
          mode,
          compress,
          ...(flags.notesTemplate !== undefined ? { notesTemplate: flags.notesTemplate } : {}),
          ...(flags.protected ? { protected: true } : {}),
          ...(flags.lockWait !== undefined ? { lockWait: true } : {}),
        };
        await runPlanned(client, await planBackupRun(client, selector, options), flags, perNode);
      } finally {
        await client.close();
      }
    });
}

function retentionOf(flags: PruneFlags): Retention {
  const retention: Retention = {};
  for (const key of KEEP_OPTIONS) {
    const camel = key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    const value = flags[camel];
    if (value === undefined) continue;
    retention[key] = Number(value) === 0 ? 0 : positiveInt(String(value), `--${key}`, 1);
  }
  if (Object.values(retention).every((n) => n === 0 || n === undefined)) {
    throw new UsageError(
      "backup prune needs a retention: at least one --keep-* option above 0",
      "e.g. --keep-last 3 --keep-daily 7 (PVE's prune-backups keys)",
    );
  }
  return retention;
}

function registerPrune(backup: Command): void {
  let command = writeOptions(addSelectionOptions(backup.command("prune")))
    .description(
      "delete the selected guests' archives beyond a retention, as PVE's prune logic marks them (needs --allow-data-loss); archives a previous guest with the same vmid left are never counted or deleted",
    )
    .requiredOption("--storage <storage>", "the storage whose archives are pruned")
    .option("--allow-data-loss", "required: pruning deletes archives");
  for (const key of KEEP_OPTIONS) command = command.option(`--${key} <n>`, `PVE's ${key}`);
  command.action(async (flags: PruneFlags) => {
    const retention = retentionOf(flags);
    const perNode = positiveInt(flags.perNode, "--per-node", DEFAULT_PER_NODE);
    const { client, selector } = await openSelection(flags, "backup prune");
    try {
      await runPlanned(client, await planBackupPrune(client, selector, { storage: flags.storage, retention }), flags, perNode);
    } finally {
      await client.close();
    }
  });
}

function registerList(backup: Command): void {
  addSelectionOptions(backup.command("list"))
    .description(
      "the backup archives of the selected guests (guests pvectl did not create included: this only reads); archives a destroyed guest left under a reused vmid show as (previous guest)",
    )
    .option("--storage <storage>", "only this storage (default: every storage that holds backups)")
    .option("--json", "JSON instead of a table")
    .action(async (flags: ReadFlags) => {
      const { client, selector } = await openSelection(flags, "backup list");
      try {
        const listing = await listBackups(client, selector, flags.storage);
        if (flags.json) process.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
        else {
          process.stdout.write(renderArchives(listing.archives));
          process.stderr.write(selectionNotes({ skipped: [], notFound: listing.notFound }, paletteFor(process.stderr)));
        }
      } finally {
        await client.close();
      }
    });
}

function registerStatus(backup: Command): void {
  addSelectionOptions(backup.command("status"))
    .description("guests that no backup job covers (the whole cluster, or the selected guests)")
    .option("--json", "JSON instead of a table")
    .action(async (flags: ReadFlags) => {
      const { client, selector } = await openSelection(flags, "backup status", true);
      try {
        const uncovered = await backupStatus(client, selector);
        process.stdout.write(flags.json ? `${JSON.stringify({ notBackedUp: uncovered }, null, 2)}\n` : renderUncovered(uncovered));
      } finally {
        await client.close();
      }
    });
}

export function registerBackupCommand(program: Command): void {
  const backup = program
    .command("backup")
    .description("back up guests, list and prune their archives, and find guests no backup job covers");
  registerRun(backup);
  registerList(backup);
  registerPrune(backup);
  registerStatus(backup);
}
