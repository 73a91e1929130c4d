// Planning a snapshot operation over many guests (`pvectl snapshot create|delete|rollback|prune`):
// select the guests, read each one's snapshots (and for a create its volumes and the node's
// storages), build each guest's steps (resources/snapshot-steps.ts) and run the preflight.
// The result is a Plan like any other: apply runs it through the same executor.
import type { PveClient } from "../api/index.js";
import { getGuestSnapshots, getNodeStorages } from "../api/endpoints/snapshots.js";
import type { GuestPlan, Plan, PreflightProblem } from "../plan/types.js";
import { snapshotNameProblem } from "../resources/snapshot-name.js";
import { type StorageFacts, spaceProblems, volumeProblems } from "../resources/snapshot-preflight.js";
import type { SnapshotEntry } from "../resources/snapshot-prune.js";
import { type SnapshotOperation, snapshotSteps } from "../resources/snapshot-steps.js";
import { snapshotVolumes } from "../resources/snapshot-volumes.js";
import { mapConcurrent } from "../util/concurrency.js";
import { DEFAULT_READ_CONCURRENCY, type GuestReads, type GuestSummary, readCluster, readGuestsPerGuest } from "./cluster.js";
import type { PlanContext } from "./plan.js";
import { checkPermissions, checkReferences } from "./preflight.js";
import { errorText } from "./retry-policy.js";
import { type GuestSelector, type Selection, selectGuests } from "./selection.js";

export const DEFAULT_MIN_FREE_PERCENT = 10;

export interface SnapshotPlanOptions {
  /** A create is refused when a thin pool holding a volume has less free space than this (percent). */
  minFreePercent?: number;
  readConcurrency?: number;
}

export interface SnapshotPlanResult {
  plan: Plan;
  context: PlanContext;
  /** Guests selected but left out (not pvectl's, templates) and names the cluster does not have. */
  selection: Pick<Selection, "skipped" | "notFound">;
}

/** A guest's snapshots as PVE lists them, without the `current` entry (the live state). */
export async function readSnapshots(client: PveClient, guest: Pick<GuestSummary, "type" | "node" | "vmid">): Promise<SnapshotEntry[]> {
  const listed = await getGuestSnapshots(client, guest.type, guest.node, guest.vmid);
  return listed
    .filter((s) => s.name !== "current")
    .map((s) => ({
      name: s.name,
      ...(s.snaptime !== undefined ? { snaptime: Number(s.snaptime) } : {}),
      ...(s.description !== undefined && s.description !== "" ? { description: s.description } : {}),
      ...(s.vmstate === true || Number(s.vmstate) === 1 ? { vmstate: true } : {}),
    }));
}

/** Unique plan keys: the guest's name, with its vmid when two selected guests share it. */
export function guestKeys(guests: GuestSummary[]): Map<number, string> {
  const count = new Map<string, number>();
  for (const g of guests) if (g.name !== undefined) count.set(g.name, (count.get(g.name) ?? 0) + 1);
  return new Map(
    guests.map((g) => [g.vmid, g.name === undefined ? `vmid-${g.vmid}` : count.get(g.name)! > 1 ? `${g.name}#${g.vmid}` : g.name]),
  );
}

/** What planning read of the selected guests. */
interface Reads {
  /** Per guest (by vmid): its snapshots, or why they could not be read. */
  snapshots: Map<number, SnapshotEntry[] | string>;
  /** Create only: the guests' configs (their volumes, lock and run state) and the nodes' storages. */
  guests?: GuestReads;
  storages: Map<string, Map<string, StorageFacts>>;
}

export async function planSnapshots(
  client: PveClient,
  selector: GuestSelector,
  op: SnapshotOperation,
  options: SnapshotPlanOptions = {},
): Promise<SnapshotPlanResult> {
  const cluster = await readCluster(client);
  const selection = selectGuests(cluster.guests, { ...selector, excludeTemplates: true });
  const concurrency = options.readConcurrency ?? DEFAULT_READ_CONCURRENCY;
  // Configs and storages are read only for a create (the only operation whose storage matters).
  const guestReads = op.action === "create" ? await readGuestsPerGuest(client, selection.guests, concurrency) : undefined;
  const guests = selection.guests.filter((g) => !guestReads?.gone.has(g.vmid));
  const listed = await mapConcurrent(guests, concurrency, (g) =>
    readSnapshots(client, g).then(
      (s) => s,
      (err: unknown) => errorText(err).split("\n")[0]!,
    ),
  );
  const reads: Reads = {
    snapshots: new Map(guests.map((g, i) => [g.vmid, listed[i]!])),
    ...(guestReads !== undefined ? { guests: guestReads } : {}),
    storages: guestReads !== undefined ? await nodeStorages(client, guests) : new Map(),
  };
  const keys = guestKeys(guests);
  const nameProblem = "name" in op ? snapshotNameProblem(op.name) : undefined;
  const problems: PreflightProblem[] = nameProblem !== undefined ? [{ kind: "snapshot", message: nameProblem }] : [];
  const planned = guests.map((g) => {
    const one = planGuest(g, keys.get(g.vmid)!, op, reads, options.minFreePercent ?? DEFAULT_MIN_FREE_PERCENT);
    problems.push(...one.problems.map((message) => ({ kind: "snapshot" as const, guest: one.guest.key, message })));
    return one.guest;
  });
  const plan: Plan = {
    format: "pvectl-plan/1",
    createdAt: new Date().toISOString(),
    target: client.origin,
    guests: planned,
    preflightErrors: problems,
  };
  const [references, permissions] = await Promise.all([checkReferences(client, cluster, planned), checkPermissions(client, planned)]);
  plan.preflightErrors.push(...references, ...permissions);
  const notFound = [...selection.notFound, ...[...(guestReads?.gone ?? [])].map((v) => `vmid ${v} (deleted meanwhile)`)];
  return { plan, context: { cluster, live: guestReads?.live ?? new Map() }, selection: { skipped: selection.skipped, notFound } };
}

/** One guest's steps and what refuses them (lock, name taken or missing, storage, free space). */
function planGuest(
  g: GuestSummary,
  key: string,
  op: SnapshotOperation,
  reads: Reads,
  minFreePercent: number,
): { guest: GuestPlan; problems: string[] } {
  const guest: GuestPlan = {
    kind: g.type,
    key,
    name: g.name ?? key,
    vmid: g.vmid,
    node: g.node,
    exists: true,
    steps: [],
    errors: [],
    warnings: [],
  };
  const listed = reads.snapshots.get(g.vmid)!;
  const failed = typeof listed === "string" ? listed : reads.guests?.failed.get(g.vmid);
  if (failed !== undefined) return { guest: { ...guest, errors: [`could not read its snapshots: ${failed}`] }, problems: [] };
  const live = reads.guests?.live.get(g.vmid);
  const status = live?.status ?? g.status;
  const lock = live !== undefined ? live.lock : g.lock;
  const built = snapshotSteps(
    {
      kind: g.type,
      vmid: g.vmid,
      node: g.node,
      status,
      snapshots: listed as SnapshotEntry[],
      ...(g.name !== undefined ? { name: g.name } : {}),
    },
    op,
  );
  const problems = [...built.problems];
  // A guest that already has the snapshot (a rerun) has nothing to run: its storage does not
  // matter, and only a snapshot lock does (PVE may still be taking it, or a run stopped while it did).
  if (built.steps.length === 0) {
    if (op.action === "create" && lock === "snapshot" && problems.length === 0) problems.push(unfinished(key, g.vmid, op.name));
    return { guest: { ...guest, warnings: problems.length > 0 ? [] : (built.warnings ?? []) }, problems };
  }
  if (lock !== undefined) {
    problems.push(
      `${key} is locked (${lock}): another operation is running on it; wait for it to finish (or remove a stale lock) and run again`,
    );
  }
  if (live !== undefined) {
    const volumes = snapshotVolumes(live);
    const facts = reads.storages.get(g.node) ?? new Map<string, StorageFacts>();
    problems.push(...volumeProblems(key, volumes, facts), ...spaceProblems(key, volumes, facts, minFreePercent));
  }
  const steps = built.steps.map((s, n) => ({ ...s, id: `${key}/${n + 1}-${s.action}` }));
  return { guest: { ...guest, steps, warnings: built.warnings ?? [] }, problems };
}

function unfinished(key: string, vmid: number, name: string): string {
  return (
    `${key} has snapshot '${name}' but is locked (snapshot): PVE is still taking it, or a run stopped while it did and the snapshot is unfinished; ` +
    `wait and run again, or, if no task runs, unlock it (qm unlock ${vmid}, pct unlock for a container), delete the snapshot (pvectl snapshot delete ${name} --vmid ${vmid} --allow-data-loss) and run again`
  );
}

/** node -> storage -> its type and space, one listing per node the guests are on. */
async function nodeStorages(client: PveClient, guests: GuestSummary[]): Promise<Map<string, Map<string, StorageFacts>>> {
  const nodes = [...new Set(guests.map((g) => g.node))];
  const lists = await mapConcurrent(nodes, 4, (node) => getNodeStorages(client, node).catch(() => []));
  return new Map(
    nodes.map((node, i) => [
      node,
      new Map(
        lists[i]!.map((s) => [
          s.storage,
          {
            type: s.type,
            ...(s.total !== undefined ? { total: Number(s.total) } : {}),
            ...(s.avail !== undefined ? { avail: Number(s.avail) } : {}),
          },
        ]),
      ),
    ]),
  );
}
