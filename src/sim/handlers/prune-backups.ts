// Backup retention: GET /nodes/{node}/storage/{storage}/prunebackups (dry run: every backup
// with mark keep|remove|protected), DELETE (a `prunebackups` task removing the `remove` ones),
// and the prune vzdump runs after each backup. The retention is the `prune-backups` parameter
// when given, else the storage's (storage.cfg; keep-all=1 when unset).
import type { SimCluster } from "../cluster/model.js";
import { keepsEverything, markBackups, parseKeep, printKeep, type KeepOptions, type PruneEntry } from "../cluster/prune.js";
import type { StorageState } from "../cluster/types.js";
import { dropVolume, findStorage, storageOnNode, volumesOn } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { nodeParam, num, sim, startGuestTask, str } from "./context.js";

/** The storage's own retention (what storage.cfg holds, keep-all=1 when nothing is set). */
export function storageRetention(storage: StorageState): KeepOptions {
  return parseKeep(storage.pruneBackups ?? "keep-all=1");
}

/** Backups on a storage seen from a node, marked by the retention; protected ones are kept. */
export function markStorageBackups(
  model: SimCluster,
  storage: StorageState,
  node: string,
  keep: KeepOptions,
  filter: { vmid?: number | undefined; type?: string | undefined } = {},
): PruneEntry[] {
  const entries: PruneEntry[] = volumesOn(model.state, storage.id, node)
    .filter((v) => v.content === "backup" && v.vmid !== undefined && v.subtype !== undefined)
    .filter((v) => (filter.vmid === undefined || v.vmid === filter.vmid) && (filter.type === undefined || v.subtype === filter.type))
    .sort((a, b) => a.volid.localeCompare(b.volid))
    .map((v) => ({
      volid: v.volid,
      type: String(v.subtype),
      vmid: Number(v.vmid),
      ctime: v.ctime,
      ...(v.protected ? { mark: "protected" as const } : {}),
    }));
  return markBackups(entries, keep);
}

/** Removes the backups marked `remove`; returns how many. */
export function removeMarked(model: SimCluster, node: string, entries: PruneEntry[], log: (l: string) => void): number {
  let removed = 0;
  for (const entry of entries) {
    if (entry.mark !== "remove") continue;
    const volume = volumesOn(model.state, entry.volid.split(":")[0] ?? "", node).find((v) => v.volid === entry.volid);
    if (!volume) continue;
    log(`removing backup '${entry.volid}'`);
    dropVolume(model.state, volume);
    removed++;
  }
  return removed;
}

/**
 * vzdump's prune after a guest's backup (remove=1, the default): nothing under keep-all,
 * else the guest's backups of its type are marked and the `remove` ones deleted.
 */
export function pruneAfterBackup(
  model: SimCluster,
  storage: StorageState,
  node: string,
  guest: { vmid: number; type: string },
  keepText: string | undefined,
  log: (l: string) => void,
): void {
  const keep = keepText !== undefined ? parseKeep(keepText) : storageRetention(storage);
  if (keepsEverything(keep)) return;
  log(`INFO: prune older backups with retention: ${printKeep(keep)}`);
  const marked = markStorageBackups(model, storage, node, keep, { vmid: guest.vmid, type: guest.type });
  const pruned = removeMarked(model, node, marked, (l) => log(`INFO: ${l}`));
  log(`INFO: pruned ${pruned} backup(s)${pruned > 0 ? " not covered by keep-retention policy" : ""}`);
}

function request(ctx: HandlerContext) {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  const id = str(ctx, "storage") ?? "";
  const storage = findStorage(model.state, id);
  if (!storage) throw new PveApiError(500, `storage '${id}' does not exist`);
  if (!storageOnNode(storage, node)) throw new PveApiError(500, `storage '${id}' is not available on node '${node}'`);
  if (!storage.content.includes("backup")) throw new PveApiError(500, `storage '${id}' does not support backups`);
  const text = str(ctx, "prune-backups");
  const keep = text !== undefined ? parseKeep(text) : storageRetention(storage);
  return { model, node, storage, keep, vmid: num(ctx, "vmid"), type: str(ctx, "type") };
}

function dryRun(ctx: HandlerContext): Array<Record<string, string | number>> {
  const { model, node, storage, keep, vmid, type } = request(ctx);
  return markStorageBackups(model, storage, node, keep, { vmid, type }).map((e) => ({
    volid: e.volid,
    ctime: e.ctime,
    mark: e.mark ?? "keep",
    type: e.type,
    vmid: e.vmid,
  }));
}

function prune(ctx: HandlerContext): string {
  const { model, node, storage, keep, vmid, type } = request(ctx);
  // without a vmid the whole storage is pruned: that needs Datastore.Allocate
  if (vmid === undefined) ctx.checkPermission(`/storage/${storage.id}`, ["Datastore.Allocate"]);
  else {
    ctx.checkPermission(`/storage/${storage.id}`, ["Datastore.AllocateSpace"]);
    ctx.checkPermission(`/vms/${vmid}`, ["VM.Backup"]);
  }
  return startGuestTask(ctx, {
    type: "prunebackups",
    vmid: vmid !== undefined ? `${vmid}@${storage.id}` : storage.id,
    kind: "config",
    work: (task) => {
      removeMarked(model, node, markStorageBackups(model, storage, node, keep, { vmid, type }), (l) => task.log(l));
    },
  });
}

export function registerPruneHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/storage/{storage}/prunebackups", dryRun);
  router.add("DELETE", "/nodes/{node}/storage/{storage}/prunebackups", prune);
}
