// The guest selection flags every command over many guests shares (snapshot, backup):
// `-f SPEC`, `--vmid`, `--name`, `--tag`, `--pool`, `--node`, `--all`, `--include-foreign`.
// With spec files the cluster is the spec's connection; without, the PROXMOX_* environment.
import type { Command } from "commander";
import { clientFromEnv, type PveClient } from "../../app/connection.js";
import { type GuestSelector, namesGuests, selectGuests } from "../../app/selection.js";
import { selectedSpecGuests } from "../../app/spec-target.js";
import { addSecretPolicyOptions, openSpecTarget, type SpecFlags, UsageError } from "./plan.js";

export interface SelectionFlags extends SpecFlags {
  vmid?: string[];
  name?: string[];
  tag?: string[];
  pool?: string[];
  node?: string[];
  all?: boolean;
  includeForeign?: boolean;
}

export function addSelectionOptions(command: Command): Command {
  return addSecretPolicyOptions(command)
    .option("-f, --file <path...>", "the guests of these spec files")
    .option("--connection <name>", "the spec connection to use (with -f)")
    .option("--vmid <vmid...>", "these guests, by vmid")
    .option("--name <name...>", "these guests, by name")
    .option("--tag <tag...>", "only guests carrying every one of these tags")
    .option("--pool <pool...>", "only guests in one of these pools")
    .option("--node <node...>", "only guests on one of these nodes")
    .option("--all", "every guest of the cluster (narrowed by --tag/--pool/--node)")
    .option("--include-foreign", "also act on selected guests pvectl did not create (without it they are skipped and listed)");
}

export interface OpenedSelection {
  client: PveClient;
  selector: GuestSelector;
}

/**
 * The client and the selector of a command's flags; `command` names it in the hints.
 * `wholeCluster`: a read-only command that reads every guest when none is named (backup status).
 */
export async function openSelection(flags: SelectionFlags, command: string, wholeCluster = false): Promise<OpenedSelection> {
  const base: GuestSelector = {
    ...(flags.vmid ? { vmids: flags.vmid.map((v) => vmidOf(v)) } : {}),
    ...(flags.name ? { names: flags.name } : {}),
    ...(flags.tag ? { tags: flags.tag } : {}),
    ...(flags.pool ? { pools: flags.pool } : {}),
    ...(flags.node ? { nodes: flags.node } : {}),
    ...(flags.all ? { all: true } : {}),
    ...(flags.includeForeign ? { includeForeign: true } : {}),
  };
  if ((flags.file ?? []).length === 0) {
    // Nothing named is refused before any connection is opened (selectGuests says what to give).
    if (!wholeCluster && !namesGuests(base)) selectGuests([], base);
    if (flags.connection !== undefined) {
      throw new UsageError(
        `--connection ${flags.connection} needs the spec file that defines it`,
        `e.g. pvectl ${command} -f cluster.yaml --connection ${flags.connection} ...`,
      );
    }
    return { client: clientFromEnv(), selector: base };
  }
  const target = await openSpecTarget([], flags, command);
  const spec = selectedSpecGuests(target);
  return { client: target.client, selector: { ...base, spec } };
}

function vmidOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100 || n > 999_999_999) {
    throw new UsageError(`--vmid must be a guest id (a whole number from 100), got '${value}'`, "e.g. --vmid 101 102");
  }
  return n;
}
