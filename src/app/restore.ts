// `restore ARCHIVE --vmid N`: finds the archive (on which node its storage shows it), the guest
// it would replace if vmid N exists, and plans the restore (resources/backup/restore.ts). Over
// an existing guest only one pvectl owns, or with includeForeign; the step is data-loss-risk,
// so apply runs it only with --allow-data-loss.
import { getArchiveConfig, getStorageContent } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import { type ClusterSnapshot, type GuestSummary, readCluster, readGuest } from "../engine/cluster.js";
import { adoptionProblem, isOwned } from "../engine/identity.js";
import { checkPermissions } from "../engine/preflight.js";
import type { GuestType } from "../plan/intent.js";
import type { PreflightProblem } from "../plan/types.js";
import { parseConfigFile } from "../pve/index.js";
import { storageOn } from "../resources/backup/guests.js";
import { archiveKind, planRestore, type ReplacedGuest } from "../resources/backup/restore.js";
import { GUEST_KINDS, kindOf } from "../resources/index.js";
import { UsageProblem } from "../util/errors.js";
import { newOperationPlan } from "./backup-plan.js";
import { type ArchiveConfigReader, planCopy } from "./restore-copy.js";
import { containerRestoreStorage } from "./restore-ct-storage.js";
import type { PlannedSpec } from "./plan-spec.js";

export class RestoreInputError extends UsageProblem {
  override name = "RestoreInputError";
}

export interface RestoreOptions {
  /** The archive's volume id (`local:backup/vzdump-qemu-101-2026_12_03-15_30_00.vma.zst`). */
  archive: string;
  vmid: number;
  node?: string;
  storage?: string;
  start?: boolean;
  /** New MACs for every NIC (PVE's `unique`: a copy beside the original); default: the archive's MACs. */
  unique?: boolean;
  /** Restore over an existing guest pvectl did not create. */
  includeForeign?: boolean;
  /** The name of a copy (a restore to another vmid than the archive's); default: NAME-copy-VMID for a pvectl guest's archive. */
  name?: string;
  /** Start a copy without --unique while the original runs (its MACs and IPs are the original's). */
  allowDuplicateMacs?: boolean;
}

interface Located {
  storage: string;
  /** Nodes whose listing of the storage shows the archive. */
  nodes: string[];
}

export async function planRestoreArchive(client: PveClient, options: RestoreOptions): Promise<PlannedSpec> {
  const { storage, kind } = parseArchive(options.archive);
  const cluster = await readCluster(client);
  const located = await locate(client, cluster, storage, options.archive, options.node);
  const existing = cluster.guests.find((g) => g.vmid === options.vmid);
  const problems: PreflightProblem[] = [];
  const errors: string[] = [];
  const node = options.node ?? existing?.node ?? located.nodes[0] ?? "";
  if (located.nodes.length === 0)
    problems.push({
      kind: "storage",
      message: `archive ${options.archive} is not on storage ${storage} (no node lists it); see pvectl backup list`,
    });
  else if (!located.nodes.includes(node))
    problems.push({
      kind: "storage",
      message: `archive ${options.archive} is not visible on node ${node} (it is on ${located.nodes.join(", ")}); restore it there with --node`,
    });
  // The copy's name and a container's storage both come from the archive's config: read it once.
  let archiveConfig: Promise<Record<string, string>> | undefined;
  const readArchiveConfig = () => {
    archiveConfig ??= getArchiveConfig(client, node, options.archive).then((text) => parseConfigFile(text).current);
    return archiveConfig;
  };
  const target = await restoreTarget(readArchiveConfig, options, kind, located.nodes.includes(node));
  problems.push(...target.problems);
  if (target.storage !== undefined) problems.push(...targetStorageProblems(cluster, target.storage, node, kind));
  let replaced: ReplacedGuest | undefined;
  if (existing) {
    errors.push(...replaceErrors(existing, kind, node));
    if (!isOwned(existing) && options.includeForeign !== true) {
      problems.push(adoptionProblem(`vmid-${existing.vmid}`, existing, "manage", "name it and add --include-foreign to restore over it"));
    }
    if (errors.length === 0) replaced = { ...existing, volumes: await volumesOf(client, existing) };
  }
  const copy = await planCopy(
    readArchiveConfig,
    {
      archive: options.archive,
      kind,
      vmid: options.vmid,
      node,
      start: options.start ?? false,
      unique: options.unique ?? false,
      allowDuplicateMacs: options.allowDuplicateMacs ?? false,
      ...(options.name !== undefined ? { name: options.name } : {}),
    },
    cluster.guests,
  );
  problems.push(...(copy?.problems ?? []));
  const request = {
    archive: { storage, volume: options.archive },
    kind,
    vmid: options.vmid,
    node,
    start: options.start ?? false,
    ...(options.unique ? { unique: true } : {}),
    ...(target.storage !== undefined ? { storage: target.storage } : {}),
    ...(copy?.name !== undefined ? { name: copy.name } : {}),
  };
  const guest = planRestore(request, replaced ?? (existing && errors.length > 0 ? { ...existing, volumes: {} } : undefined), errors, [
    ...target.warnings,
    ...(copy?.warnings ?? []),
  ]);
  problems.push(...(await checkPermissions(client, [guest])));
  return { plan: newOperationPlan(client, [guest], problems), desired: [], context: { cluster, live: new Map() } };
}

/**
 * The storage the restored disks go to: --storage; else for a VM none (PVE keeps each disk
 * where it was backed up from), for a container its root disk's (restore-ct-storage.ts).
 */
async function restoreTarget(
  readArchiveConfig: ArchiveConfigReader,
  options: RestoreOptions,
  kind: GuestType,
  archiveVisible: boolean,
): Promise<{ storage?: string; warnings: string[]; problems: PreflightProblem[] }> {
  if (options.storage !== undefined) return { storage: options.storage, warnings: [], problems: [] };
  // A container restored without --storage goes where its archive's config puts its volumes (restore-ct-storage.ts).
  if (!GUEST_KINDS[kind].rules.restoreReadsArchiveStorages || !archiveVisible) return { warnings: [], problems: [] };
  return containerRestoreStorage(readArchiveConfig, options.archive);
}

function parseArchive(archive: string): { storage: string; kind: GuestType } {
  const m = /^([a-zA-Z][\w.-]*):(.+)$/.exec(archive);
  const kind = archiveKind(archive);
  if (!m || kind === undefined) {
    throw new RestoreInputError(
      `'${archive}' is not a vzdump archive's volume id`,
      "give it as pvectl backup list shows it, e.g. local:backup/vzdump-qemu-101-2026_12_03-15_30_00.vma.zst",
    );
  }
  return { storage: m[1]!, kind };
}

/** The nodes that list the archive (a shared storage: the first that does, every node sees it). */
async function locate(client: PveClient, cluster: ClusterSnapshot, storage: string, archive: string, preferred?: string): Promise<Located> {
  const holders = cluster.storages.filter((s) => s.storage === storage && s.available);
  holders.sort((a, b) => Number(b.node === preferred) - Number(a.node === preferred));
  const nodes: string[] = [];
  for (const holder of holders) {
    const content = await getStorageContent(client, holder.node, storage, { content: "backup" });
    if (!content.some((v) => v.volid === archive)) continue;
    if (holder.shared) return { storage, nodes: holders.map((h) => h.node) };
    nodes.push(holder.node);
  }
  return { storage, nodes };
}

function targetStorageProblems(cluster: ClusterSnapshot, storage: string, node: string, kind: GuestType): PreflightProblem[] {
  const found = storageOn(cluster.storages, storage, node);
  const content = GUEST_KINDS[kind].volumeContent.type;
  if (found === undefined)
    return [{ kind: "storage", message: `storage ${storage} is not on node ${node}; name a storage of that node with --storage` }];
  if (!found.content.includes(content)) {
    return [
      {
        kind: "storage",
        message: `storage ${storage} does not hold ${GUEST_KINDS[kind].volumeContent.described}; pick another with --storage`,
      },
    ];
  }
  return [];
}

/** Why PVE would refuse this restore over `guest` (it restores over a stopped, unlocked guest of the archive's type, on its node). */
function replaceErrors(guest: GuestSummary, kind: GuestType, node: string): string[] {
  const label = `vmid ${guest.vmid}${guest.name ? ` (${guest.name})` : ""}`;
  if (guest.type !== kind)
    return [`${label} is a ${GUEST_KINDS[guest.type].noun} and the archive holds a ${GUEST_KINDS[kind].noun}; restore it to a free vmid`];
  if (guest.node !== node) return [`${label} is on node ${guest.node}: a restore over it runs there (drop --node, or name ${guest.node})`];
  if (guest.lock !== undefined) return [`${label} is locked (${guest.lock}); run the restore again once that operation is done`];
  if (guest.status === "running")
    return [`${label} is running: PVE does not restore over a running guest; stop it first (or restore to a free vmid)`];
  return [];
}

async function volumesOf(client: PveClient, guest: GuestSummary): Promise<Record<string, string>> {
  const live = await readGuest(client, guest);
  const volumes = kindOf({ kind: guest.type }).devices(live).volumes;
  // A CD-ROM's ISO image is shared, not the guest's: the restore does not touch it.
  return Object.fromEntries(Object.entries(volumes).filter(([, volume]) => !/:iso\//.test(volume)));
}
