// POST /nodes/{node}/lxc/{vmid}/move_volume as pve-container's API2/LXC.pm does it.
// To another storage (`storage`): only a stopped CT, only rootfs/mpN; the CT holds `lock: disk`
// from the request until the `move_volume` task ends; the copy is a new volume in the format
// alloc_disk picks for that storage, the old one stays as `unusedN` unless `delete=1`.
// To another container (`target-vmid`, `target-volume`): the volume is renamed for the target
// (a `move_volume` task with id `<vmid>-<key>><target>-<key>`), source and target on one node.
import { driveVolume, isDiskKey, withVolume } from "../cluster/drives.js";
import { checkLock, nextUnusedKey } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { allocateVolume, containerFormat, dropVolume, findVolume, removeVolume, renameToBase, requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, num, pathGuest, sim, startGuestTask, str } from "./context.js";
import { assertUnmodified, mountPoint } from "./lxc-mountpoint.js";

function inSnapshots(guest: GuestState, volid: string): boolean {
  return guest.snapshots.some((s) => Object.entries(s.config).some(([k, v]) => isDiskKey("lxc", k) && driveVolume(String(v)) === volid));
}

/** move_to_storage_checks: made before the task; ends by setting `lock: disk`. */
function checkMoveToStorage(ctx: HandlerContext, model: SimCluster, guest: GuestState, key: string): string {
  checkLock(guest);
  if (guest.status === "running") throw new PveApiError(500, "cannot move volumes of a running container");
  if (/^unused\d+$/.test(key)) {
    throw new PveApiError(500, `cannot move volume '${key}', only configured volumes can be moved to another storage`);
  }
  const mp = mountPoint(guest, key);
  if (flag(ctx, "delete") && mp.volid !== undefined && inSnapshots(guest, mp.volid)) {
    throw new PveApiError(500, "you can't move a volume with snapshots and delete the source");
  }
  assertUnmodified(model, guest, str(ctx, "digest"));
  return mp.text;
}

/** copy_volume onto `storageId`, then the config points at the copy; runs inside the task. */
function copyToStorage(
  model: SimCluster,
  guest: GuestState,
  key: string,
  storageId: string,
  deleteSource: boolean,
  task: { log: (l: string) => void; warn: (l: string) => void },
): void {
  const text = String(guest.config[key]);
  const volid = driveVolume(text);
  if (volid === undefined) throw new Error("cannot copy volumes of type bind");
  const source = findVolume(model.state, volid, guest.node);
  if (!source) throw new Error(`volume '${volid}' does not exist`);
  const storage = requireStorage(model.state, storageId, guest.node);
  if (!storage.content.includes("rootdir"))
    throw new Error(`content type 'rootdir' is not available or configured on storage '${storageId}'`);
  const copy = allocateVolume(model.state, {
    storage,
    node: guest.node,
    vmid: guest.vmid,
    size: source.size,
    content: "rootdir",
    format: containerFormat(storage, source.size),
    ctime: model.now(),
  });
  task.log(`copying ${volid} to ${copy.volid} (rsync --stats -X -A --numeric-ids -aH --whole-file --sparse --one-file-system)`);
  // a template's volumes are base volumes, so is the copy
  const target = guest.config.template === 1 ? renameToBase(model.state, copy.volid, guest.node) : copy.volid;
  guest.config[key] = withVolume("lxc", key, text, target, source.size);
  // vdisk_free refuses a base volume that linked clones still use: PVE warns and keeps it as unusedN
  const inUse = model.state.volumes.some((v) => v.parent === volid);
  if (deleteSource && inUse) task.warn(`base volume '${volid}' is still in use by linked cloned`);
  if (deleteSource && !inUse) removeVolume(model.state, volid, guest.node);
  else guest.config[nextUnusedKey(guest)] = volid;
}

function moveToStorage(ctx: HandlerContext, guest: GuestState, key: string, storageId: string): string {
  const model = sim(ctx);
  ctx.checkPermission(`/storage/${storageId}`, ["Datastore.AllocateSpace"]);
  checkMoveToStorage(ctx, model, guest, key);
  guest.config.lock = "disk";
  const unlock = () => {
    if (guest.config.lock === "disk") delete guest.config.lock;
  };
  const volid = driveVolume(String(guest.config[key]));
  return startGuestTask(ctx, {
    type: "move_volume",
    vmid: guest.vmid,
    kind: "move",
    bytes: volid ? (findVolume(model.state, volid, guest.node)?.size ?? 0) : 0,
    onFailure: unlock,
    work: (task) => {
      try {
        copyToStorage(model, guest, key, storageId, flag(ctx, "delete"), task);
      } finally {
        unlock();
      }
    },
  });
}

/** load_and_check_reassign_configs: every check of a move to another container. */
function checkReassign(
  ctx: HandlerContext,
  model: SimCluster,
  source: GuestState,
  key: string,
  targetVmid: number,
  targetKey: string,
): GuestState {
  if (key === "rootfs" || targetKey === "rootfs") throw new PveApiError(500, "Cannot move to/from 'rootfs'");
  if (/^unused\d+$/.test(key) && !/^unused\d+$/.test(targetKey)) {
    throw new PveApiError(500, "Moving an unused volume to a used one is not possible");
  }
  const found = model.guest(targetVmid);
  if (!found) throw new PveApiError(500, `could not find CT ${targetVmid}`);
  if (found.node !== source.node)
    throw new PveApiError(500, `Both containers need to be on the same node (${source.node} != ${found.node})`);
  if (found.type !== "lxc") throw new PveApiError(500, `Configuration file 'nodes/${found.node}/lxc/${targetVmid}.conf' does not exist`);
  const target = found;
  checkLock(source);
  if (target !== source) checkLock(target);
  if (source.config.template === 1 || target.config.template === 1) throw new PveApiError(500, "Can't move volumes from or to template CT");
  assertUnmodified(model, source, str(ctx, "digest"), `Container ${source.vmid}: `);
  assertUnmodified(model, target, str(ctx, "target-digest"), `Container ${targetVmid}: `);
  if (source.config[key] === undefined) throw new PveApiError(500, `volume '${key}' for container '${source.vmid}' does not exist`);
  if (target.config[targetKey] !== undefined) {
    throw new PveApiError(500, `Target volume key '${targetKey}' is already in use for container '${targetVmid}'`);
  }
  const volid = driveVolume(String(source.config[key]));
  if (volid === undefined) throw new PveApiError(500, "Cannot move a bindmount or device mount to another container");
  if (inSnapshots(source, volid)) throw new PveApiError(500, "Cannot move volume used by a snapshot to another container");
  if (source.status === "running" && !/^unused\d+$/.test(key)) {
    throw new PveApiError(500, "Cannot move in-use volume while the source CT is running - detach or shutdown first");
  }
  return target;
}

/** rename_volume: the same data under the target's next free disk name on the same storage. */
function reassign(
  model: SimCluster,
  source: GuestState,
  key: string,
  target: GuestState,
  targetKey: string,
  log: (l: string) => void,
): void {
  const text = String(source.config[key]);
  const volid = driveVolume(text) ?? "";
  const volume = findVolume(model.state, volid, source.node);
  if (!volume) throw new Error(`volume '${volid}' does not exist`);
  log(`moving volume '${key}' from container '${source.vmid}' to '${target.vmid}'`);
  const storage = requireStorage(model.state, volume.storage, source.node);
  dropVolume(model.state, volume);
  const renamed = allocateVolume(model.state, {
    storage,
    node: source.node,
    vmid: target.vmid,
    size: volume.size,
    content: "rootdir",
    format: volume.format,
    ctime: volume.ctime,
  });
  delete source.config[key];
  log(`removing volume '${key}' from container '${source.vmid}' config`);
  target.config[targetKey] = /^unused\d+$/.test(targetKey) ? renamed.volid : withVolume("lxc", targetKey, text, renamed.volid);
  log(`target container '${target.vmid}' updated with '${targetKey}'`);
}

function moveToContainer(ctx: HandlerContext, source: GuestState, key: string, targetVmid: number): string {
  const model = sim(ctx);
  const targetKey = str(ctx, "target-volume") ?? key;
  if (ctx.auth.userid !== "root@pam" || ctx.auth.tokenid !== undefined) ctx.checkPermission(`/vms/${targetVmid}`, ["VM.Config.Disk"]);
  checkReassign(ctx, model, source, key, targetVmid, targetKey);
  ctx.checkPermission(`/storage/${(driveVolume(String(source.config[key])) ?? "").split(":")[0]}`, ["Datastore.AllocateSpace"]);
  return startGuestTask(ctx, {
    type: "move_volume",
    vmid: `${source.vmid}-${key}>${targetVmid}-${targetKey}`,
    kind: "config",
    work: (task) => {
      const target = checkReassign(ctx, model, source, key, targetVmid, targetKey);
      reassign(model, source, key, target, targetKey, (l) => task.log(l));
    },
  });
}

function moveVolume(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "lxc");
  const key = str(ctx, "volume") ?? "";
  const storageId = str(ctx, "storage");
  const targetVmid = num(ctx, "target-vmid");
  if (storageId !== undefined && targetVmid !== undefined) {
    throw new PveApiError(500, "either set storage or target-vmid, but not both");
  }
  if (targetVmid !== undefined) return moveToContainer(ctx, guest, key, targetVmid);
  if (storageId !== undefined) return moveToStorage(ctx, guest, key, storageId);
  const msg = "both 'storage' and 'target-vmid' missing, either needs to be set";
  throw new PveApiError(400, "Parameter verification failed.", { "target-vmid": msg, storage: msg });
}

export function registerLxcMoveVolume(router: Router): void {
  router.add("POST", "/nodes/{node}/lxc/{vmid}/move_volume", moveVolume);
}
