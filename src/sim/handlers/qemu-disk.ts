// Disk operations: PUT …/resize (grow only), POST …/move_disk, PUT …/unlink (containers: lxc-resize.ts, lxc-move-volume.ts).
import { formatSize, isUnusedKey, splitList, tryParseSize } from "../../pve/index.js";
import { driveSize, driveVolume, isCdrom, isDiskKey, withVolume } from "../cluster/drives.js";
import { checkLock, nextUnusedKey, updateGuestConfig } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType, StorageState } from "../cluster/types.js";
import { flockAtStart, releaseFlock, tryFlock } from "../cluster/config-flock.js";
import { allocateVolume, assertThickLvmGrowth, findVolume, removeVolume, requireStorage, resolveFormatHint } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router, type TaskHandle } from "../contract.js";
import { volumeInUse } from "./volume-use.js";
import { flag, isKnownOption, num, pathGuest, rootOnly, sim, startGuestTask, str } from "./context.js";

function checkDigest(model: SimCluster, guest: GuestState, digest: string | undefined): void {
  if (digest !== undefined && digest !== model.digest(guest)) {
    throw new Error(
      guest.type === "qemu"
        ? "checksum mismatch (file change by other user?)"
        : "detected modified configuration - file changed by other user? Try again.",
    );
  }
}

/** Grows a disk; `size` is absolute or `+delta` with K/M/G/T (bytes without a unit). */
export function resizeDisk(model: SimCluster, guest: GuestState, disk: string, sizeText: string, log: (l: string) => void): void {
  const value = guest.config[disk];
  if (value === undefined) throw new Error(`disk '${disk}' does not exist`);
  if (isCdrom(String(value))) throw new Error("you can't resize a cdrom");
  const volid = driveVolume(String(value));
  if (!volid) throw new Error(`disk '${disk}' has no associated volume`);
  const volume = findVolume(model.state, volid, guest.node);
  const current = volume?.size ?? driveSize(guest.type, disk, String(value));
  const relative = sizeText.startsWith("+");
  const parsed = tryParseSize(relative ? sizeText.slice(1) : sizeText);
  if (parsed === undefined) throw new Error(`unable to parse size '${sizeText}'`);
  const newSize = relative ? current + parsed : parsed;
  if (newSize < current) throw new Error("shrinking disks is not supported");
  if (newSize === current) return;
  if (volume) assertThickLvmGrowth(model.state, volume, guest.node, newSize - current);
  if (volume) volume.size = newSize;
  guest.config[disk] = withVolume(guest.type, disk, String(value), volid, newSize);
  log(`  Size of logical volume ${volid} changed from ${formatSize(current)} to ${formatSize(newSize)}.`);
}

function resize(type: GuestType) {
  return (ctx: HandlerContext): string => {
    rootOnly(ctx, "skiplock");
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const disk = str(ctx, "disk") ?? "";
    const size = str(ctx, "size") ?? "";
    const digest = str(ctx, "digest");
    const skiplock = flag(ctx, "skiplock");
    return startGuestTask(ctx, {
      type: "resize",
      vmid: guest.vmid,
      kind: "config",
      work: (task) => {
        checkDigest(model, guest, digest);
        checkLock(guest, skiplock);
        resizeDisk(model, guest, disk, size, (l) => task.log(l));
      },
    });
  };
}

function moveDisk(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  const disk = str(ctx, "disk") ?? "";
  const storageId = str(ctx, "storage");
  const targetVmid = num(ctx, "target-vmid");
  if (storageId === undefined && targetVmid === undefined) {
    throw new PveApiError(400, "Parameter verification failed.", { storage: "either set 'storage' or 'target-vmid'" });
  }
  if (storageId !== undefined && targetVmid !== undefined && targetVmid !== guest.vmid) {
    throw new PveApiError(400, "Parameter verification failed.", {
      storage: "either set 'storage' or 'target-vmid', but not both",
    });
  }
  checkDigest(model, guest, str(ctx, "digest"));
  checkLock(guest);
  const value = guest.config[disk];
  if (value === undefined) throw new PveApiError(500, `disk '${disk}' does not exist`);
  if (isCdrom(String(value))) throw new PveApiError(500, "you can't move a cdrom");
  const volid = driveVolume(String(value));
  if (!volid) throw new PveApiError(500, `disk '${disk}' has no associated volume`);
  const source = findVolume(model.state, volid, guest.node);
  if (!source) throw new PveApiError(500, `volume '${volid}' does not exist`);

  if (targetVmid !== undefined && targetVmid !== guest.vmid) {
    return reassignDisk(ctx, model, guest, disk, targetVmid);
  }
  const requested = str(ctx, "format");
  if (storageId === source.storage && (requested ?? source.format) === source.format) {
    throw new PveApiError(500, "you can't move to the same storage with same format");
  }
  const storage = requireStorage(model.state, storageId ?? "", guest.node);
  if (!storage.content.includes("images")) {
    throw new PveApiError(400, "Parameter verification failed.", { storage: `storage '${storage.id}' does not support vm images` });
  }
  // qemu-server's resolve_dst_disk_format: without `format` the source's is the hint
  const format = resolveFormatHint(storage, requested ?? source.format);
  const deleteSource = flag(ctx, "delete");
  // the snapshots keep naming the old volume, so it has to stay (as unusedN)
  const snapshotted = volumeInUse(guest, disk, volid);
  if (snapshotted && deleteSource) throw new PveApiError(500, "you can't move a disk with snapshots and delete the source");
  ctx.checkPermission(`/storage/${storage.id}`, ["Datastore.AllocateSpace"]);
  // The worker holds the VM's config-file lock for the whole copy (lock_config): a second move
  // started meanwhile waits for it and gives up ("can't lock file … - got timeout").
  if (!tryFlock(model.state, guest.vmid, true)) {
    return startGuestTask(ctx, { type: "qmmove", vmid: guest.vmid, kind: "config", work: flockAtStart(model.state, "qemu", guest.vmid) });
  }
  const unlock = () => releaseFlock(model.state, guest.vmid);
  return startGuestTask(ctx, {
    type: "qmmove",
    vmid: guest.vmid,
    kind: "clone",
    bytes: source.size,
    onFailure: unlock,
    work: (task) => {
      try {
        copyDisk(model, guest, { disk, volid, storage, format, deleteSource, snapshotted }, task);
      } finally {
        unlock();
      }
    },
  });
}

interface DiskCopy {
  disk: string;
  volid: string;
  storage: StorageState;
  format: string;
  deleteSource: boolean;
  snapshotted: boolean;
}

/** The move's work under the lock: the config is read again, as the worker loads it anew. */
function copyDisk(model: SimCluster, guest: GuestState, move: DiskCopy, task: TaskHandle): void {
  checkLock(guest);
  const value = guest.config[move.disk];
  const source = findVolume(model.state, move.volid, guest.node);
  if (value === undefined || driveVolume(String(value)) !== move.volid || !source) {
    throw new Error(`disk '${move.disk}' does not exist`);
  }
  task.log(`copying volume '${move.volid}' from current storage '${source.storage}' to target storage '${move.storage.id}'`);
  if (move.snapshotted) task.warn("moving disk with snapshots, snapshots will not be moved!");
  const target = allocateVolume(model.state, {
    storage: move.storage,
    node: guest.node,
    vmid: guest.vmid,
    size: source.size,
    content: "images",
    format: move.format,
    ctime: model.now(),
  });
  task.log(`create full clone of drive ${move.disk} (${move.volid})`);
  guest.config[move.disk] = withVolume("qemu", move.disk, String(value), target.volid);
  if (move.deleteSource) removeVolume(model.state, move.volid, guest.node);
  else guest.config[nextUnusedKey(guest)] = move.volid;
}

function reassignDisk(ctx: HandlerContext, model: SimCluster, guest: GuestState, disk: string, targetVmid: number): string {
  const target = model.guest(targetVmid);
  if (target?.type !== "qemu") {
    throw new PveApiError(500, `Configuration file 'nodes/${guest.node}/qemu-server/${targetVmid}.conf' does not exist`);
  }
  if (target.node !== guest.node) throw new PveApiError(500, "both VMs need to be on the same node");
  const targetDigest = str(ctx, "target-digest");
  if (targetDigest !== undefined && targetDigest !== model.digest(target)) {
    throw new PveApiError(500, "checksum mismatch (file change by other user?)");
  }
  checkLock(target);
  const volid = driveVolume(String(guest.config[disk])) ?? "";
  if (volumeInUse(guest, disk, volid)) {
    throw new PveApiError(500, "Can't move disk used by a snapshot to another VM");
  }
  const targetDisk = str(ctx, "target-disk") ?? disk;
  if (target.config[targetDisk] !== undefined) {
    throw new PveApiError(500, `target-disk '${targetDisk}' is already in use on VM ${targetVmid}`);
  }
  if (isUnusedKey(disk) !== isUnusedKey(targetDisk) && !isDiskKey("qemu", targetDisk)) {
    throw new PveApiError(500, `cannot move '${disk}' to '${targetDisk}'`);
  }
  ctx.checkPermission(`/vms/${targetVmid}`, ["VM.Config.Disk"]);
  return startGuestTask(ctx, {
    type: "qmmove",
    vmid: guest.vmid,
    kind: "config",
    work: () => {
      const value = String(guest.config[disk]);
      const volid = driveVolume(value) ?? "";
      const source = findVolume(model.state, volid, guest.node);
      if (!source) throw new Error(`volume '${volid}' does not exist`);
      const storage = requireStorage(model.state, source.storage, guest.node);
      removeVolume(model.state, volid, guest.node);
      const moved = allocateVolume(model.state, {
        storage,
        node: guest.node,
        vmid: targetVmid,
        size: source.size,
        content: "images",
        format: source.format,
        ctime: source.ctime,
      });
      delete guest.config[disk];
      target.config[targetDisk] = isUnusedKey(targetDisk) ? moved.volid : withVolume("qemu", targetDisk, value, moved.volid);
    },
  });
}

function unlink(ctx: HandlerContext): null {
  const guest = pathGuest(ctx, "qemu");
  const keys = splitList(str(ctx, "idlist") ?? "");
  for (const key of keys) {
    if (!isKnownOption(ctx, key) && !isDiskKey("qemu", key) && !isUnusedKey(key)) {
      throw new PveApiError(400, "Parameter verification failed.", { idlist: `unknown option '${key}'` });
    }
  }
  checkLock(guest);
  updateGuestConfig(sim(ctx), guest, { set: {}, delete: keys, revert: [], force: flag(ctx, "force") }, () => {});
  return null;
}

export function registerDiskHandlers(router: Router): void {
  router.add("PUT", "/nodes/{node}/qemu/{vmid}/resize", resize("qemu"));
  router.add("POST", "/nodes/{node}/qemu/{vmid}/move_disk", moveDisk);
  router.add("PUT", "/nodes/{node}/qemu/{vmid}/unlink", unlink);
}
