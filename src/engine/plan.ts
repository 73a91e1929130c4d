// plan = read the live cluster once, match each spec guest to a live one, diff, preflight.
// The result is data (plan/types.ts) that `apply` executes as is.
import { getGuestSnapshotConfig } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { GuestPlan, Plan, PreflightProblem } from "../plan/types.js";
import { type DesiredGuest, kindOf, type LiveGuest, planKindField } from "../resources/index.js";
import { planGuestDestroy } from "../resources/destroy-plan.js";
import { type DesiredObjects, declaresObjects, poolsCreatedBy } from "../resources/objects.js";
import { mapConcurrent } from "../util/concurrency.js";
import { noteTemplatesAfterClones, planClonesOfPlannedSources } from "./clone-order.js";
import { findCloneSource, type SourceMatch } from "./clone-source.js";
import { type ClusterSnapshot, type GuestReads, type GuestSummary, readCluster, readGuestsPerGuest } from "./cluster.js";
import { type SettleOptions, settleCreates } from "./creates.js";
import { adoptionProblem, findGuest, isOwned, type Match } from "./identity.js";
import { hiddenVmids, invisibleGuestError, invisibleGuestProblem } from "./invisible-guests.js";
import { planObjects } from "./plan-objects.js";
import { checkPermissions, checkReferences } from "./preflight.js";
import { checkClones } from "./preflight-clone.js";
import { checkMigrations } from "./preflight-migrate.js";
import { checkFormats } from "./preflight-format.js";
import { checkPools, poolsJoinedBy } from "./preflight-pools.js";
import { checkSpace } from "./preflight-space.js";
import { checkTemplates } from "./preflight-template.js";
import { errorText } from "./retry-policy.js";
import { planRetention } from "./snapshot-retention.js";

export interface PlanOptions {
  /** Seconds a graceful shutdown may take before the stop step fails (or forces). */
  shutdownTimeoutSeconds?: number;
  /** Stop hard after the shutdown timeout instead of failing. */
  forceStop?: boolean;
  /** Parallel config reads. */
  readConcurrency?: number;
  /** Skip the reference and permission checks (tests of the diff alone). The adoption rule still holds. */
  skipPreflight?: boolean;
  /**
   * Allow managing every matched guest pvectl did not create (`--adopt`), as if each spec
   * entry said `adopt: true`: the plan adds the ownership tag. Without it such guests are refused.
   */
  adopt?: boolean;
  /** How to allow adoption, in the refusal (the CLI's default: `adopt: true` in the spec entry or --adopt). */
  adoptHint?: string;
  /** `--show-secret`: a new API token without `secretFile` gets its secret printed once at apply (else the plan refuses it). */
  showSecret?: boolean;
  /**
   * How a guest found away from its spec's node is read (resources/placement.ts): `record` (the
   * default) migrates it only when the spec's node differs from the one pvectl recorded; `spec`
   * (`--placement spec`) migrates every guest away from its spec's node.
   */
  placement?: PlacementMode;
  /** How long entries without a vmid wait for creates in progress that may be them (default 60 s), and the progress of that wait. */
  createWait?: SettleOptions;
}

export const DEFAULT_SHUTDOWN_TIMEOUT = 120;

export const PLACEMENT_MODES = ["record", "spec"] as const;
export type PlacementMode = (typeof PLACEMENT_MODES)[number];

/** What planning read: apply reuses it instead of reading the cluster again, and reports unchanged guests from it. */
export interface PlanContext {
  cluster: ClusterSnapshot;
  live: Map<number, LiveGuest>;
}

/** A plan (plain data, to print, save or send as JSON) and what was read to make it. */
export interface PlanResult {
  plan: Plan;
  context: PlanContext;
}

/** A guest with nothing to do: absent and meant to be, or blocked by `errors`. */
function idleGuest(vm: DesiredGuest, errors: string[]): GuestPlan {
  return kindOf(vm).plan.idle(vm, errors);
}

function newPlan(client: PveClient, guests: GuestPlan[]): Plan {
  return { format: "pvectl-plan/1", createdAt: new Date().toISOString(), target: client.origin, guests, preflightErrors: [] };
}

async function finish(
  client: PveClient,
  cluster: ClusterSnapshot,
  plan: Plan,
  options: PlanOptions,
  refused: PreflightProblem[],
  creatingPools: string[] = [],
): Promise<Plan> {
  plan.preflightErrors = [...refused];
  if (options.skipPreflight) return plan;
  const [references, pools, permissions, clones, space, migrations] = await Promise.all([
    checkReferences(client, cluster, plan.guests),
    checkPools(client, plan.guests, creatingPools),
    checkPermissions(client, plan.guests),
    checkClones(client, cluster, plan.guests),
    checkSpace(client, cluster, plan.guests),
    checkMigrations(client, cluster, plan.guests),
  ]);
  plan.preflightErrors.push(
    ...references,
    ...pools,
    ...permissions,
    ...clones,
    ...space.problems,
    ...migrations,
    ...checkFormats(cluster, plan.guests),
    ...checkTemplates(cluster, plan.guests),
  );
  for (const guest of plan.guests) guest.warnings.push(...(space.warnings.get(guest.key) ?? []));
  return plan;
}

/** A matched guest pvectl did not create, that neither the spec entry nor the run allows adopting. */
function refusesAdoption(vm: DesiredGuest, guest: GuestSummary, options: PlanOptions): boolean {
  return !isOwned(guest) && vm.adopt !== true && options.adopt !== true;
}

/** A guest the plan leaves alone because adopting it was not allowed: no steps; the preflight problem says why and how. */
function foreignGuest(vm: DesiredGuest, guest: GuestSummary): GuestPlan {
  const error = `left alone: vmid ${guest.vmid} was not created by pvectl and adopting it is not allowed (see the preflight problem)`;
  const kind = planKindField(vm.kind);
  return {
    ...kind,
    key: vm.key,
    name: vm.name,
    vmid: guest.vmid,
    node: guest.node,
    exists: true,
    steps: [],
    errors: [error],
    warnings: [],
  };
}

/** Said of an existing guest whose spec entry has `clone:`: what it was cloned from is not PVE's to tell, nor a reason to recreate it. */
const CLONE_NOTE = "exists, so clone: is not used (a guest is cloned only when it is created; a changed clone.from does not recreate it)";

/** The clone source of each entry to be created with `clone:`, found in the listing. */
function cloneSources(matches: Array<{ vm: DesiredGuest; match: Match }>, cluster: ClusterSnapshot): Map<string, SourceMatch> {
  const out = new Map<string, SourceMatch>();
  for (const { vm, match } of matches) {
    if (vm.clone !== undefined && !vm.absent && match.kind !== "error") out.set(vm.key, findCloneSource(vm, cluster.guests));
  }
  return out;
}

/**
 * The source as it was at `clone.snapname`, for each entry that clones a snapshot: the config
 * that snapshot holds (what PVE copies), or why it cannot be read.
 */
async function readSnapshots(
  client: PveClient,
  matches: Array<{ vm: DesiredGuest }>,
  sources: Map<string, SourceMatch>,
  reads: GuestReads,
): Promise<Map<string, LiveGuest | string>> {
  const out = new Map<string, LiveGuest | string>();
  const wanted = matches.flatMap(({ vm }) => {
    const source = sources.get(vm.key);
    const snapname = vm.clone?.snapname;
    const live = source?.kind === "found" ? reads.live.get(source.guest.vmid) : undefined;
    return snapname !== undefined && live !== undefined ? [{ vm, snapname, live }] : [];
  });
  await mapConcurrent(wanted, 4, async ({ vm, snapname, live }) => {
    const kind = kindOf(vm);
    try {
      const config = await getGuestSnapshotConfig(client, kind.type, live.node, live.vmid, snapname);
      out.set(vm.key, kind.fromConfig({ vmid: live.vmid, node: live.node, status: live.status, template: live.template }, config));
    } catch (err) {
      out.set(vm.key, `clone.snapname: snapshot ${snapname} of vmid ${live.vmid} cannot be read: ${errorText(err).split("\n")[0]}`);
    }
  });
  return out;
}

/** The vmids of the entries the listing lacks and the spec wants present: each would be a create. */
function creatingAt(matches: Array<{ vm: DesiredGuest; match: Match }>): number[] {
  return matches.flatMap(({ vm, match }) => (match.kind === "absent" && !vm.absent && vm.vmid !== undefined ? [vm.vmid] : []));
}

/** A guest to be created: by its kind's create, or cloned from its source (read with the rest). */
function createPlan(
  vm: DesiredGuest,
  source: SourceMatch | undefined,
  reads: GuestReads,
  snapshots: Map<string, LiveGuest | string>,
): GuestPlan {
  if (vm.clone === undefined) return kindOf(vm).plan.create(vm);
  if (source === undefined) return idleGuest(vm, ["clone.from: the source was not looked up"]);
  if (source.kind === "error") return idleGuest(vm, [source.message]);
  const vmid = source.guest.vmid;
  const snapshot = snapshots.get(vm.key);
  if (typeof snapshot === "string") return idleGuest(vm, [snapshot]);
  const live = snapshot ?? reads.live.get(vmid);
  if (live !== undefined) return kindOf(vm).plan.create(vm, live);
  const why = reads.failed.get(vmid) ?? `the source (vmid ${vmid}) was deleted meanwhile`;
  return idleGuest(vm, [`clone.from: ${why}`]);
}

/** Plans the spec's guests, and the cluster objects it declares (backup jobs), against the live cluster. */
export async function buildPlan(
  client: PveClient,
  desired: DesiredGuest[],
  options: PlanOptions = {},
  objects: DesiredObjects = {},
): Promise<PlanResult> {
  const power = {
    shutdownTimeoutSeconds: options.shutdownTimeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT,
    forceStop: options.forceStop ?? false,
  };
  const cluster = await settleCreates(client, await readCluster(client), desired, options.createWait);
  const matches = desired.map((vm) => ({ vm, match: findGuest(vm, cluster.guests) }));
  const toRead: GuestSummary[] = [];
  const claimed = new Map<number, string>();
  for (const { vm, match } of matches) {
    if (match.kind !== "found") continue;
    const other = claimed.get(match.guest.vmid);
    if (other === undefined && !refusesAdoption(vm, match.guest, options)) toRead.push(match.guest);
    claimed.set(match.guest.vmid, other ?? vm.key);
  }
  // The sources of the guests cloned into being are read with the rest, once each.
  const sources = cloneSources(matches, cluster);
  const reading = new Set(toRead.map((g) => g.vmid));
  for (const source of sources.values()) {
    if (source.kind === "found" && !reading.has(source.guest.vmid)) {
      reading.add(source.guest.vmid);
      toRead.push(source.guest);
    }
  }
  const reads = await readGuestsPerGuest(client, toRead, options.readConcurrency);
  const placement = {
    followSpec: options.placement === "spec",
    sharedStorages: new Set(cluster.storages.filter((s) => s.shared).map((s) => s.storage)),
  };
  const live = reads.live;
  const guests: GuestPlan[] = [];
  const refused: PreflightProblem[] = [];
  const snapshots = await readSnapshots(client, matches, sources, reads);
  const create = (vm: DesiredGuest) => createPlan(vm, sources.get(vm.key), reads, snapshots);
  const hidden = await hiddenVmids(client, creatingAt(matches));
  for (const { vm, match } of matches) {
    if (match.kind === "error") {
      guests.push(idleGuest(vm, [match.message]));
      continue;
    }
    if (match.kind === "absent" && vm.vmid !== undefined && hidden.has(vm.vmid)) {
      guests.push(idleGuest(vm, [invisibleGuestError(vm.vmid)]));
      refused.push(invisibleGuestProblem(vm.key, vm.vmid, client.identity));
      continue;
    }
    if (match.kind === "absent") {
      guests.push(vm.absent ? idleGuest(vm, []) : create(vm));
      continue;
    }
    const owner = claimed.get(match.guest.vmid);
    if (owner !== vm.key) {
      guests.push(idleGuest(vm, [`vmid ${match.guest.vmid} is also claimed by ${owner} in the spec; each guest may appear once`]));
      continue;
    }
    if (refusesAdoption(vm, match.guest, options)) {
      guests.push(foreignGuest(vm, match.guest));
      refused.push(adoptionProblem(vm.key, match.guest, vm.absent ? "destroy" : "manage", options.adoptHint));
      continue;
    }
    // Deleted between the listing and its read: absent after all. Unreadable: its own error.
    const failed = reads.failed.get(match.guest.vmid);
    if (reads.gone.has(match.guest.vmid)) guests.push(vm.absent ? idleGuest(vm, []) : create(vm));
    else if (failed !== undefined) guests.push(idleGuest(vm, [failed]));
    else {
      const current = live.get(match.guest.vmid)!;
      const adopt = !isOwned(match.guest);
      const kind = kindOf(vm);
      const planned = vm.absent
        ? planGuestDestroy(kind, vm.key, current, power)
        : kind.plan.update(vm, current, { ...power, adopt, placement });
      if (!vm.absent && vm.clone !== undefined) planned.warnings.push(CLONE_NOTE);
      guests.push(planned);
    }
  }
  await planRetention(client, guests, desired, live);
  planClonesOfPlannedSources(guests, desired, live);
  noteTemplatesAfterClones(guests);
  // Objects first: a pool the spec's access section creates is no missing pool for its guests.
  const planned = declaresObjects(objects)
    ? await planObjects(client, objects, { ...options, poolsInUse: poolsJoinedBy(guests) })
    : undefined;
  const plan = await finish(client, cluster, newPlan(client, guests), options, refused, poolsCreatedBy(planned?.objects ?? []));
  if (planned !== undefined) {
    plan.objects = planned.objects;
    plan.preflightErrors.push(...planned.problems);
  }
  return { plan, context: { cluster, live } };
}

export interface DestroySelection {
  /** Spec guests to destroy (found the same way plan finds them). */
  desired: DesiredGuest[];
}

/** Plans destroying the spec's guests that exist (the `pvectl destroy` command). */
export async function buildDestroyPlan(client: PveClient, selection: DestroySelection, options: PlanOptions = {}): Promise<Plan> {
  const power = {
    shutdownTimeoutSeconds: options.shutdownTimeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT,
    forceStop: options.forceStop ?? false,
  };
  const cluster = await readCluster(client);
  const guests: GuestPlan[] = [];
  const found: Array<{ vm: DesiredGuest; guest: GuestSummary }> = [];
  const refused: PreflightProblem[] = [];
  for (const vm of selection.desired) {
    const match = findGuest(vm, cluster.guests);
    if (match.kind === "error") guests.push(idleGuest(vm, [match.message]));
    else if (match.kind === "found" && refusesAdoption(vm, match.guest, options)) {
      guests.push(foreignGuest(vm, match.guest));
      refused.push(adoptionProblem(vm.key, match.guest, "destroy", options.adoptHint));
    } else if (match.kind === "found") found.push({ vm, guest: match.guest });
  }
  const reads = await readGuestsPerGuest(
    client,
    found.map((f) => f.guest),
    options.readConcurrency,
  );
  for (const { vm, guest } of found) {
    // A guest deleted meanwhile is already gone: nothing to destroy.
    if (reads.gone.has(guest.vmid)) continue;
    const failed = reads.failed.get(guest.vmid);
    guests.push(failed !== undefined ? idleGuest(vm, [failed]) : planGuestDestroy(kindOf(vm), vm.key, reads.live.get(guest.vmid)!, power));
  }
  noteTemplatesAfterClones(guests);
  return finish(client, cluster, newPlan(client, guests), options, refused);
}
