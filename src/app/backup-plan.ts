// Backup operations as plans (`backup run`, `backup prune`): the selected guests, planned by
// resources/backup, checked by the same permission preflight as every plan, and run by
// applyPlan (per-node limit, task waits, guard rails, report) like any other plan.
import { getPruneMarks } from "../api/endpoints/index.js";
import { guestCreatedAt, madeBeforeGuest } from "./guest-created.js";
import type { PveClient } from "../api/index.js";
import { type ClusterSnapshot, readCluster } from "../engine/cluster.js";
import { checkPermissions } from "../engine/preflight.js";
import { type GuestSelector, type Selection, selectGuests } from "../engine/selection.js";
import type { GuestPlan, Plan, PreflightProblem } from "../plan/types.js";
import { type MarkedArchive, planPruneGuest, type Retention, retentionText } from "../resources/backup/prune.js";
import { type BackupRunOptions, planBackups } from "../resources/backup/run.js";
import type { PlannedSpec } from "./plan-spec.js";

/** A plan over selected guests, with what the selection left out (the CLI lists it). */
export interface PlannedOperation extends PlannedSpec {
  selection: Selection;
}

export function newOperationPlan(client: PveClient, guests: GuestPlan[], problems: PreflightProblem[]): Plan {
  return { format: "pvectl-plan/1", createdAt: new Date().toISOString(), target: client.origin, guests, preflightErrors: problems };
}

function planned(plan: Plan, cluster: ClusterSnapshot, selection: Selection): PlannedOperation {
  return { plan, desired: [], context: { cluster, live: new Map() }, selection };
}

/** `backup run`: one vzdump step per selected guest (templates included: PVE backs them up). */
export async function planBackupRun(client: PveClient, selector: GuestSelector, options: BackupRunOptions): Promise<PlannedOperation> {
  const cluster = await readCluster(client);
  const selection = selectGuests(cluster.guests, selector);
  const { guests, problems } = planBackups(selection.guests, cluster.storages, options);
  const permissions = await checkPermissions(client, guests);
  return planned(newOperationPlan(client, guests, [...problems, ...permissions]), cluster, selection);
}

export interface PruneOptions {
  storage: string;
  retention: Retention;
}

/**
 * `backup prune`: PVE's prune dry run on each node that holds the storage (a shared storage is
 * read once: every node sees the same archives), then one delete step per archive it marks
 * `remove`, for the selected guests.
 */
export async function planBackupPrune(client: PveClient, selector: GuestSelector, options: PruneOptions): Promise<PlannedOperation> {
  const cluster = await readCluster(client);
  const selection = selectGuests(cluster.guests, selector);
  const holders = cluster.storages.filter((s) => s.storage === options.storage && s.available && s.content.includes("backup"));
  if (holders.length === 0) {
    const problem: PreflightProblem = {
      kind: "storage",
      message: `no node has a storage ${options.storage} for backups (available, with content 'backup'); name the storage the archives are on with --storage`,
    };
    return planned(newOperationPlan(client, [], [problem]), cluster, selection);
  }
  const readFrom = holders[0]!.shared ? [holders[0]!] : holders;
  const wanted = new Set(selection.guests.map((g) => g.vmid));
  const marks: MarkedArchive[] = [];
  const keep = retentionText(options.retention);
  for (const holder of readFrom) {
    const listed = await getPruneMarks(client, holder.node, holder.storage, { "prune-backups": keep });
    for (const m of listed) {
      if (m.vmid === undefined || !wanted.has(Number(m.vmid))) continue;
      marks.push({
        volid: m.volid,
        vmid: Number(m.vmid),
        node: holder.node,
        storage: holder.storage,
        mark: m.mark,
        ...(m.ctime !== undefined ? { ctime: m.ctime } : {}),
      });
    }
  }
  const guests = [];
  for (const guest of selection.guests) {
    // A previous guest's archives (same vmid, made before this guest was created) are never
    // this guest's to prune. They are older than all of its own, so PVE's marks for its own
    // archives are the same with or without them (retention walks from the newest).
    const createdAt = await guestCreatedAt(client, guest);
    const mine = marks.filter((m) => m.vmid === guest.vmid);
    const previous = mine.filter((m) => madeBeforeGuest(m.ctime, createdAt));
    const plan = planPruneGuest(
      guest,
      mine.filter((m) => !previous.includes(m)),
      options.retention,
    );
    if (previous.length > 0)
      plan.warnings.push(
        `kept ${previous.length} archive${previous.length === 1 ? "" : "s"} of a previous guest with vmid ${guest.vmid} (made before this guest was created): prune never counts or deletes them as this guest's`,
      );
    guests.push(plan);
  }
  const permissions = await checkPermissions(client, guests);
  return planned(newOperationPlan(client, guests, permissions), cluster, selection);
}
