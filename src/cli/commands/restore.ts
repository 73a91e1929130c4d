// `pvectl restore ARCHIVE --vmid N`: a guest from a vzdump archive, as a one-step plan run
// through runApply. Over an existing guest it replaces its disks: --allow-data-loss, and
// --include-foreign when pvectl did not create that guest.
import type { Command } from "commander";
import { clientFromEnv } from "../../app/connection.js";
import { planRestoreArchive } from "../../app/restore.js";
import { type ApplyFlags, runApply } from "./apply-flow.js";
import { UsageError } from "./plan.js";

interface Flags extends ApplyFlags {
  vmid: string;
  node?: string;
  storage?: string;
  start?: boolean;
  unique?: boolean;
  includeForeign?: boolean;
  name?: string;
  allowDuplicateMacs?: boolean;
}

function vmidOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 999_999_999)
    throw new UsageError(`--vmid must be a guest id (a whole number from 100), got '${value}'`, "e.g. --vmid 120");
  return n;
}

export function registerRestoreCommand(program: Command): void {
  program
    .command("restore")
    .description("make a guest from a backup archive (a new vmid; over an existing guest only with --allow-data-loss)")
    .argument("<archive>", "the archive's volume id, as `pvectl backup list` shows it")
    .requiredOption("--vmid <vmid>", "the guest to restore as (a free vmid, or an existing guest to replace)")
    .option("--node <node>", "the node to restore on (default: the existing guest's, else one that sees the archive)")
    .option(
      "--storage <storage>",
      "put every restored disk here (default: a VM's disks where each was backed up from; a container's volumes where its root disk was)",
    )
    .option("--start", "start the guest after the restore")
    .option("--unique", "give every NIC a new MAC address (a copy running beside the original); default: the archive's MACs are kept")
    .option("--name <name>", "the name of a copy (a vmid other than the archive's); default for a copy of a pvectl guest: NAME-copy-VMID")
    .option("--allow-duplicate-macs", "with --start and without --unique: start a copy even while the original runs (same MACs and IPs)")
    .option("--allow-data-loss", "required to restore over an existing guest: its config and disks are replaced")
    .option("--include-foreign", "allow restoring over an existing guest pvectl did not create")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "the plan's refusal or the report as JSON")
    .action(async (archive: string, flags: Flags) => {
      const client = clientFromEnv();
      try {
        const planned = await planRestoreArchive(client, {
          archive,
          vmid: vmidOf(flags.vmid),
          ...(flags.node !== undefined ? { node: flags.node } : {}),
          ...(flags.storage !== undefined ? { storage: flags.storage } : {}),
          start: flags.start ?? false,
          unique: flags.unique ?? false,
          includeForeign: flags.includeForeign ?? false,
          ...(flags.name !== undefined ? { name: flags.name } : {}),
          allowDuplicateMacs: flags.allowDuplicateMacs ?? false,
        });
        await runApply(client, planned, flags, {}, "apply");
      } finally {
        await client.close();
      }
    });
}
