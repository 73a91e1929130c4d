// Clones, checked before anything changes, as PVE will judge them: a linked clone needs a
// template as its source and storages that can make linked clones (PVE's own answer, GET
// …/feature?feature=clone, so every storage type and format is judged by PVE's rules); a clone
// onto another node needs every volume it makes on shared storage (PVE: "can't clone VM to
// node … (VM uses local storage)"), which a full clone can get by naming a shared `storage`.
// A source this same plan creates or converts is judged by the volumes it is planned with.
import { getGuestFeature } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { CloneIntent } from "../plan/intent.js";
import { GUEST_KINDS } from "../resources/index.js";
import type { GuestPlan, PreflightProblem } from "../plan/types.js";
import { mapConcurrent } from "../util/concurrency.js";
import type { ClusterSnapshot } from "./cluster.js";
import { clonesWaitFor } from "./clone-order.js";
import { errorText } from "./retry-policy.js";

interface Clone {
  guest: string;
  intent: CloneIntent;
}

function clonesOf(guests: GuestPlan[]): Clone[] {
  return guests.flatMap((g) =>
    g.steps.flatMap((s) => s.calls.flatMap((c) => (c.intent.op === "clone" ? [{ guest: g.key, intent: c.intent }] : []))),
  );
}

function sourceName(intent: CloneIntent): string {
  return `${intent.source.template ? "template" : "guest"} ${intent.source.vmid} on ${intent.source.node}`;
}

/** Cross-node: the storages the copy would be made on that are local to the source's node. */
function localTargets(intent: CloneIntent, cluster: ClusterSnapshot): string[] {
  const targets = new Set(intent.volumes.map((v) => (intent.full && intent.storage !== undefined ? intent.storage : v.storage)));
  return [...targets].filter((s) => !cluster.storages.some((i) => i.storage === s && i.shared)).sort();
}

function crossNodeProblem(clone: Clone, cluster: ClusterSnapshot): PreflightProblem | undefined {
  const { intent } = clone;
  if (intent.target === intent.source.node) return undefined;
  const local = localTargets(intent, cluster);
  if (local.length === 0) return undefined;
  const shared = [
    ...new Set(cluster.storages.filter((s) => s.shared && s.node === intent.target && s.content.includes("images")).map((s) => s.storage)),
  ].sort();
  const fix = intent.full
    ? shared.length > 0
      ? `set clone.storage to a shared storage (${shared.join(", ")})`
      : "no shared storage holds images on the target node; clone onto the source's node and migrate"
    : `set full: true with clone.storage on a shared storage${shared.length > 0 ? ` (${shared.join(", ")})` : ""}, or create the guest on ${intent.source.node}`;
  return {
    kind: "clone",
    guest: clone.guest,
    message: `cloning ${sourceName(intent)} onto ${intent.target} needs shared storage, but ${local.join(", ")} ${local.length > 1 ? "are" : "is"} local to ${intent.source.node}: ${fix}`,
  };
}

/** pve-container copies a running container's volumes only from a snapshot. */
function runningProblem(clone: Clone): PreflightProblem | undefined {
  const { intent } = clone;
  if (
    !GUEST_KINDS[intent.kind].rules.fullCloneNeedsStoppedSource ||
    !intent.full ||
    !intent.source.running ||
    intent.snapname !== undefined
  )
    return undefined;
  return {
    kind: "clone",
    guest: clone.guest,
    message: `PVE cannot make a full clone of a running container (${sourceName(intent)}): stop it first, or clone a template`,
  };
}

/** Storage types whose volumes a base image can be linked from, whatever the format. */
const LINKS_ANY = new Set(["lvmthin", "zfspool", "zfs", "rbd", "btrfs"]);
/** Storage types of image files: linked from a qcow2 base, which new VM disks there are by default (a container's are raw). */
const FILE_STORAGES = new Set(["dir", "nfs", "cifs", "glusterfs", "cephfs"]);

/**
 * A source this plan makes does not exist yet for PVE to answer about: its volumes are judged
 * by the storages they are planned on, as pve-storage judges a base volume.
 */
function plannedLinkable(intent: CloneIntent, cluster: ClusterSnapshot): boolean {
  return intent.volumes.every(({ storage }) => {
    const type = cluster.storages.find((s) => s.storage === storage && s.node === intent.source.node)?.type ?? "";
    return LINKS_ANY.has(type) || (FILE_STORAGES.has(type) && GUEST_KINDS[intent.kind].rules.linksOnFileStorages);
  });
}

async function linkedProblem(
  client: PveClient,
  cluster: ClusterSnapshot,
  clone: Clone,
  planned: boolean,
): Promise<PreflightProblem | undefined> {
  const { intent } = clone;
  if (intent.full) return undefined;
  const fix = "set full: true (a full copy)";
  // pve-container links a container's snapshot too; qemu-server links templates only.
  if (!intent.source.template && !(GUEST_KINDS[intent.kind].rules.linksFromSnapshot && intent.snapname !== undefined)) {
    return {
      kind: "clone",
      guest: clone.guest,
      message: `a linked clone (full: false) needs a template as its source; ${sourceName(intent)} is not one: ${fix}, or clone a template`,
    };
  }
  if (intent.volumes.length === 0) return undefined;
  if (planned) {
    if (plannedLinkable(intent, cluster)) return undefined;
  } else {
    try {
      const answer = await getGuestFeature(client, intent.kind, intent.source.node, intent.source.vmid, "clone", intent.snapname);
      if (answer.hasFeature) return undefined;
    } catch (err) {
      return {
        kind: "clone",
        guest: clone.guest,
        message: `could not ask PVE whether ${sourceName(intent)} can be linked-cloned: ${errorText(err).split("\n")[0]}`,
      };
    }
  }
  const storages = [...new Set(intent.volumes.map((v) => v.storage))].sort().join(", ");
  return {
    kind: "clone",
    guest: clone.guest,
    message: `Linked clone feature is not available for ${sourceName(intent)}: its volumes on ${storages} cannot be linked-cloned (PVE links on lvmthin, zfs, rbd, btrfs, or qcow2 files): ${fix}`,
  };
}

export async function checkClones(client: PveClient, cluster: ClusterSnapshot, guests: GuestPlan[]): Promise<PreflightProblem[]> {
  const clones = clonesOf(guests);
  const problems: PreflightProblem[] = [];
  for (const clone of clones) {
    const cross = crossNodeProblem(clone, cluster);
    if (cross) problems.push(cross);
    const running = runningProblem(clone);
    if (running) problems.push(running);
  }
  // One feature question per source, however many clones it makes.
  const linked = new Map<string, Clone[]>();
  for (const clone of clones) {
    const key = `${clone.intent.kind}/${clone.intent.source.node}/${clone.intent.source.vmid}/${clone.intent.full}/${clone.intent.snapname ?? ""}`;
    linked.set(key, [...(linked.get(key) ?? []), clone]);
  }
  // A source this plan creates or converts is judged as planned (PVE has not seen it yet).
  const waitsFor = clonesWaitFor(guests);
  const answers = await mapConcurrent([...linked.values()], 4, async (group) => ({
    group,
    problem: await linkedProblem(client, cluster, group[0]!, waitsFor.has(group[0]!.guest)),
  }));
  for (const { group, problem } of answers) {
    if (problem) for (const clone of group) problems.push({ ...problem, guest: clone.guest });
  }
  return problems;
}
