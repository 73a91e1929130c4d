// Free space, before anything runs: every volume the plan makes (new disks, full clones, moves,
// grows) is summed per storage across the whole plan (per node for a local storage) and
// compared with what PVE reports free there (GET /nodes/{node}/storage: total, used, avail).
// Only a thick LVM storage is refused: its volume group hands out whole extents and lvcreate /
// lvextend fail when they run out. Every other storage over-commits (lvmthin, rbd, sparse zvols,
// qcow2 or sparse raw files), so a plan that exceeds its free space only gets a warning with the
// numbers. Space the plan frees (deleted disks, moved sources) is not counted: guests run
// concurrently, so nothing says it is freed before it is needed.
import { getNodeStorages, type NodeStorageStatus } from "../api/endpoints/index.js";
import type { ApiReader } from "../api/endpoints/index.js";
import type { CallIntent } from "../plan/intent.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import { humanSize } from "../resources/formats.js";
import { mapConcurrent } from "../util/concurrency.js";
import type { ClusterSnapshot } from "./cluster.js";
import { errorText } from "./retry-policy.js";

/** One volume the plan makes or grows: whose, what, where, how many bytes. */
export interface SpaceNeed {
  guest: string;
  /** `scsi1 new 32 GiB`, `rootfs grown by 4 GiB`, `scsi0 moved 16 GiB` ... */
  what: string;
  storage: string;
  node: string;
  bytes: number;
}

/** A thick LVM volume group allocates whole extents (4 MiB by default): each volume is rounded up. */
const LVM_EXTENT = 4 * 1024 * 1024;

/** Storage types whose volumes reserve their whole size at once, so PVE fails where they do not fit. */
const THICK = new Set(["lvm"]);

function needsOfIntent(guest: GuestPlan, intent: CallIntent): SpaceNeed[] {
  const at = (storage: string, what: string, bytes: number): SpaceNeed => ({ guest: guest.key, what, storage, node: guest.node, bytes });
  switch (intent.op) {
    case "create":
    case "configure":
      return intent.writes.flatMap((w) =>
        w.as === "drive" && w.newOn !== undefined && w.newBytes !== undefined
          ? [at(w.newOn, `${w.key} new ${humanSize(w.newBytes)}`, w.newBytes)]
          : [],
      );
    case "resize": {
      if (intent.fromBytes === undefined || intent.storage === undefined || intent.sizeBytes <= intent.fromBytes) return [];
      const grown = intent.sizeBytes - intent.fromBytes;
      return [at(intent.storage, `${intent.slot} grown by ${humanSize(grown)}`, grown)];
    }
    case "move-volume":
      return intent.sizeBytes !== undefined
        ? [at(intent.storage, `${intent.slot} moved ${humanSize(intent.sizeBytes)}`, intent.sizeBytes)]
        : [];
    case "migrate":
      // Node-local volumes are copied to the same storage on the target (shared ones stay).
      return intent.localVolumes.flatMap((v) =>
        v.sizeBytes !== undefined
          ? [{ ...at(v.storage, `${v.slot} copied to ${intent.target} ${humanSize(v.sizeBytes)}`, v.sizeBytes), node: intent.target }]
          : [],
      );
    case "clone":
      // A linked clone shares its template's base volumes: nothing new to hold.
      if (!intent.full) return [];
      return intent.volumes.flatMap((v) =>
        v.sizeBytes !== undefined ? [at(intent.storage ?? v.storage, `${v.slot} cloned ${humanSize(v.sizeBytes)}`, v.sizeBytes)] : [],
      );
    default:
      return [];
  }
}

/** Every volume the plan's steps make or grow, in plan order. */
export function spaceNeeds(guests: GuestPlan[]): SpaceNeed[] {
  return guests.flatMap((g) => g.steps.flatMap((s) => s.calls.flatMap((c) => needsOfIntent(g, c.intent))));
}

/** The space of one storage as one node sees it, or why it could not be read. */
export type StorageSpace = { avail: number; total?: number } | { unknown: string };

/** One storage the plan puts volumes on: a shared one once for the cluster, a local one per node. */
export interface SpaceGroup {
  storage: string;
  node: string;
  shared: boolean;
  type?: string;
  needs: SpaceNeed[];
}

/** The needs summed per storage (and per node for a local storage), in the order first met. */
export function groupNeeds(needs: SpaceNeed[], cluster: ClusterSnapshot): SpaceGroup[] {
  const groups = new Map<string, SpaceGroup>();
  for (const need of needs) {
    const info = cluster.storages.find((s) => s.storage === need.storage && s.node === need.node);
    const shared = info?.shared ?? false;
    const key = shared ? need.storage : `${need.node}\0${need.storage}`;
    const group = groups.get(key) ?? {
      storage: need.storage,
      node: need.node,
      shared,
      ...(info?.type !== undefined ? { type: info.type } : {}),
      needs: [],
    };
    group.needs.push(need);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Bytes the group takes: thick LVM rounds each volume up to whole extents, as lvcreate does. */
export function neededBytes(group: SpaceGroup): number {
  const thick = THICK.has(group.type ?? "");
  return group.needs.reduce((sum, n) => sum + (thick ? Math.ceil(n.bytes / LVM_EXTENT) * LVM_EXTENT : n.bytes), 0);
}

function where(group: SpaceGroup): string {
  return group.shared ? `storage ${group.storage}` : `storage ${group.storage} on node ${group.node}`;
}

function guestsOf(group: SpaceGroup): string[] {
  return [...new Set(group.needs.map((n) => n.guest))].sort();
}

function listNeeds(group: SpaceGroup): string {
  return group.needs.map((n) => `${n.guest} ${n.what}`).join(", ");
}

/** What to say about thin storages that will be over-committed, by type. */
function thinNote(type: string | undefined): string {
  if (type === "zfspool" || type === "zfs")
    return "; a zvol reserves its whole size unless the storage sets `sparse`, and PVE then refuses it";
  if (type === "dir" || type === "nfs" || type === "cifs" || type === "glusterfs")
    return "; image files are sparse unless the storage sets `preallocation: falloc` or `full`";
  return "";
}

export interface SpaceVerdict {
  problems: PreflightProblem[];
  /** guest key -> warnings */
  warnings: Map<string, string[]>;
}

function warn(verdict: SpaceVerdict, guests: string[], text: string): void {
  for (const guest of guests) verdict.warnings.set(guest, [...(verdict.warnings.get(guest) ?? []), text]);
}

/** Judges each group against its storage's free space (`space` by group, in the same order). */
export function judgeSpace(groups: SpaceGroup[], space: StorageSpace[], identity: string): SpaceVerdict {
  const verdict: SpaceVerdict = { problems: [], warnings: new Map() };
  groups.forEach((group, i) => {
    const known = space[i]!;
    const guests = guestsOf(group);
    const needed = neededBytes(group);
    if ("unknown" in known) {
      warn(
        verdict,
        guests,
        `free space on ${where(group)} was not checked (${known.unknown}): this plan puts ${humanSize(needed)} there (${listNeeds(group)}); ` +
          `${identity} sees it with Datastore.Audit (or Datastore.AllocateSpace) on /storage/${group.storage}`,
      );
      return;
    }
    if (needed <= known.avail) return;
    const numbers = `has ${humanSize(known.avail)} free${known.total !== undefined ? ` of ${humanSize(known.total)}` : ""}, this plan needs ${humanSize(needed)} there (${listNeeds(group)})`;
    if (THICK.has(group.type ?? "")) {
      verdict.problems.push({
        kind: "space",
        guest: guests.join(", "),
        message:
          `${where(group)} (thick LVM, which cannot over-commit) ${numbers}: PVE would fail to allocate; ` +
          `put some of these volumes on another storage, make them smaller, or free ${humanSize(needed - known.avail)} on ${group.storage} first ` +
          "(space this plan frees is not counted)",
      });
      return;
    }
    warn(
      verdict,
      guests,
      `${where(group)} (${group.type ?? "type unknown"}, thin: PVE over-commits) ${numbers}; allowed, but it fills up as the guests write${thinNote(group.type)}`,
    );
  });
  return verdict;
}

/** The space PVE reports for a storage, or why it cannot be judged (hidden, inactive, no figures). */
function spaceOf(status: NodeStorageStatus | undefined): StorageSpace {
  if (status === undefined) return { unknown: "PVE did not list its status" };
  if (status.active !== undefined && !status.active) return { unknown: "it is not active" };
  if (status.avail === undefined) return { unknown: "PVE returned no free space for it" };
  return { avail: status.avail, ...(status.total !== undefined ? { total: status.total } : {}) };
}

/** One storage listing per node that gets volumes (a shared storage is read on the first such node). */
async function readSpace(client: ApiReader, groups: SpaceGroup[]): Promise<StorageSpace[]> {
  const nodes = [...new Set(groups.map((g) => g.node))];
  const listings = new Map<string, NodeStorageStatus[] | string>();
  await mapConcurrent(nodes, 4, async (node) => {
    try {
      listings.set(node, await getNodeStorages(client, node));
    } catch (err) {
      listings.set(node, `reading GET /nodes/${node}/storage failed: ${errorText(err).split("\n")[0]}`);
    }
  });
  return groups.map((group) => {
    const listing = listings.get(group.node);
    if (typeof listing === "string" || listing === undefined) return { unknown: listing ?? "not read" };
    return spaceOf(listing.find((s) => s.storage === group.storage));
  });
}

/**
 * Refuses a plan whose volumes do not fit on a thick storage, and warns where a thin one is
 * over-committed or its space cannot be read. Storages that do not exist or are unavailable
 * are reported by the reference check, not here.
 */
export async function checkSpace(
  client: ApiReader & { identity: string },
  cluster: ClusterSnapshot,
  guests: GuestPlan[],
): Promise<SpaceVerdict> {
  const groups = groupNeeds(spaceNeeds(guests), cluster).filter((g) =>
    cluster.storages.some((s) => s.storage === g.storage && s.node === g.node && s.available && cluster.nodes.get(g.node)?.online),
  );
  if (groups.length === 0) return { problems: [], warnings: new Map() };
  return judgeSpace(groups, await readSpace(client, groups), client.identity);
}
