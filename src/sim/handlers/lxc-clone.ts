// POST …/lxc/{vmid}/clone (`vzclone`) and …/template (`vztemplate`), as pve-container's
// API2/LXC.pm does them: checks and locks before the task (the source holds `lock: disk`, the
// new CT `lock: create`), copies or linked clones in the task, every lock released at the end.
import { driveVolume, isDiskKey, withVolume } from "../cluster/drives.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import { withNewMac } from "../cluster/nics.js";
import type { GuestConfig, GuestState, StorageState, VolumeState } from "../cluster/types.js";
import { allocateVolume, containerFormat, findStorage, findVolume, renameToBase, requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { type CloneRequest, readCloneRequest } from "./clone-request.js";
import { pathGuest, sim, startGuestTask, str } from "./context.js";
import { freeOnFailure, removeGuest, reserveGuest } from "./new-guest.js";

/** The config a clone starts from: the CT's own, or the snapshot's. */
function sourceConfig(source: GuestState, snapname: string | undefined): GuestConfig {
  if (snapname === undefined) return source.config;
  const snap = source.snapshots.find((s) => s.name === snapname);
  if (!snap) throw new PveApiError(500, `snapshot '${snapname}' does not exist`);
  return snap.config;
}

/** clone_vm's checks of each mount point (sorted keys, as PVE walks them). */
function checkCloneVolumes(req: CloneRequest, config: GuestConfig, snapname: string | undefined): void {
  const { model, source, full, storageId, target } = req;
  let shared = true;
  for (const key of Object.keys(config).sort()) {
    if (!isDiskKey("lxc", key)) continue;
    const volid = driveVolume(String(config[key]));
    if (!volid) throw new PveApiError(500, `unable to clone mountpoint '${key}' (type bind)`);
    const storage = findStorage(model.state, storageId ?? volid.split(":")[0] ?? "");
    if (!storage?.shared) shared = false;
    if (full && source.status === "running" && snapname === undefined) {
      throw new PveApiError(500, "Cannot do full clones on a running container without snapshots");
    }
    // a linked clone needs a base volume (template) or a snapshot to clone from
    if (!full && snapname === undefined && !/(^|[:/])base(vol)?-\d+-disk-\d+(\.\w+)?$/.test(volid)) {
      throw new PveApiError(500, `Linked clone feature for '${volid}' is not available`);
    }
  }
  if (target !== source.node && !shared) {
    throw new PveApiError(500, `can't clone CT to node '${target}' (CT uses local storage)`);
  }
}

/** copy_volume (full: a new volume in the format alloc_disk picks) or vdisk_clone (linked). */
function cloneVolume(model: SimCluster, req: CloneRequest, source: VolumeState, allocated: VolumeState[]): string {
  const storage: StorageState = requireStorage(model.state, req.full ? (req.storageId ?? source.storage) : source.storage, req.target);
  const created = allocateVolume(model.state, {
    storage,
    node: req.target,
    vmid: req.newid,
    size: source.size,
    content: "rootdir",
    format: req.full ? containerFormat(storage, source.size) : source.format,
    ...(req.full ? {} : { parent: source.volid }),
    ctime: model.now(),
  });
  allocated.push(created);
  return created.volid;
}

function cloneConfig(
  model: SimCluster,
  req: CloneRequest,
  config: GuestConfig,
  allocated: VolumeState[],
  log: (l: string) => void,
): GuestConfig {
  const next: GuestConfig = {};
  for (const [key, value] of Object.entries(config)) {
    if (["lock", "template", "parent", "snaptime", "snapstate"].includes(key) || /^unused\d+$/.test(key)) continue;
    // clone always gives every NIC a new MAC
    next[key] = /^net\d+$/.test(key) ? withNewMac("lxc", key, String(value), model.newMac()) : value;
  }
  for (const key of Object.keys(next)) {
    if (!isDiskKey("lxc", key)) continue;
    const volid = driveVolume(String(next[key])) ?? "";
    const volume = findVolume(model.state, volid, req.source.node);
    if (!volume) throw new Error(`volume '${volid}' does not exist`);
    log(`create ${req.full ? "full clone of mountpoint" : "linked clone of mount point"} ${key} (${volid})`);
    next[key] = withVolume("lxc", key, String(next[key]), cloneVolume(model, req, volume, allocated), volume.size);
  }
  return next;
}

/** clone_vm's checks before the task, in its order; returns the config to clone from. */
function checkClone(ctx: HandlerContext, req: CloneRequest): GuestConfig {
  const { source, model, newid, target, storageId } = req;
  if (storageId !== undefined) {
    const storage = requireStorage(model.state, storageId, source.node);
    if (target !== source.node) {
      requireStorage(model.state, storageId, target);
      if (!storage.shared) throw new PveApiError(500, `can't clone to non-shared storage '${storageId}'`);
    }
  }
  checkLock(source);
  const existing = model.guest(newid);
  if (existing) {
    throw new PveApiError(500, `${existing.type === "qemu" ? "VM" : "CT"} ${newid} already exists on node '${existing.node}'`);
  }
  if (storageId !== undefined && !req.full) throw new PveApiError(500, "parameter 'storage' not allowed for linked clones");
  const snapname = str(ctx, "snapname");
  const config = sourceConfig(source, snapname);
  checkCloneVolumes(req, config, snapname);
  return config;
}

function cloneCt(ctx: HandlerContext): string {
  const req = readCloneRequest(ctx, "lxc");
  const { source, model, newid, pool, target } = req;
  const config = checkClone(ctx, req);
  source.config.lock = "disk";
  const clone = reserveGuest(model, { vmid: newid, type: "lxc", node: target, agentDelay: 0 }, "create");
  const hostname = str(ctx, "hostname");
  const description = str(ctx, "description");
  const unlockSource = () => {
    if (source.config.lock === "disk") delete source.config.lock;
  };
  return startGuestTask(ctx, {
    type: "vzclone",
    vmid: source.vmid,
    kind: "clone",
    onFailure: () => {
      unlockSource();
      removeGuest(model, clone);
    },
    work: (task) => {
      try {
        freeOnFailure(
          model,
          target,
          () => removeGuest(model, clone),
          (allocated) => {
            const next = cloneConfig(model, req, config, allocated, (l) => task.log(l));
            if (hostname) next.hostname = hostname;
            if (description) next.description = description;
            clone.config = next;
            if (pool !== undefined) model.addToPool(pool, newid);
          },
        );
      } catch (err) {
        throw new Error(`clone failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        unlockSource();
      }
    },
  });
}

/** POST …/template: checked at once, converted in a `vztemplate` task; the call answers null. */
function lxcTemplate(ctx: HandlerContext): null {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  checkLock(guest);
  if (guest.snapshots.length > 0) throw new PveApiError(500, "unable to create template, because CT contains snapshots");
  if (guest.config.template === 1) throw new PveApiError(500, "you can't convert a template to a template");
  if (guest.status === "running") throw new PveApiError(500, "you can't convert a CT to template if the CT is running");
  startGuestTask(ctx, {
    type: "vztemplate",
    vmid: guest.vmid,
    kind: "template",
    work: () => {
      const volumes = Object.entries(guest.config).filter(([key, value]) => isDiskKey("lxc", key) && driveVolume(String(value)));
      for (const [, value] of volumes) {
        const volid = driveVolume(String(value)) ?? "";
        // template_create asks the storage first: plain LVM cannot make base volumes
        if (findStorage(model.state, volid.split(":")[0] ?? "")?.type === "lvm")
          throw new Error(`Template feature is not available for '${volid}'`);
      }
      for (const [key, value] of volumes) {
        guest.config[key] = withVolume("lxc", key, String(value), renameToBase(model.state, driveVolume(String(value)) ?? "", guest.node));
      }
      guest.config.template = 1;
    },
  });
  return null;
}

export function registerLxcClone(router: Router): void {
  router.add("POST", "/nodes/{node}/lxc/{vmid}/template", lxcTemplate);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/clone", cloneCt);
}
