// POST …/qemu/{vmid}/clone (full or linked; new MACs, new ids) and POST …/qemu/{vmid}/template.
import { isCloudinitDrive, isUnusedKey } from "../../pve/index.js";
import { allocateCloudinit, driveVolume, isCdrom, isDiskKey, withVolume } from "../cluster/drives.js";
import { flockAtStart, releaseFlock, tryFlock } from "../cluster/config-flock.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import { withNewMac } from "../cluster/nics.js";
import type { GuestConfig, GuestState, VolumeState } from "../cluster/types.js";
import { allocateVolume, findStorage, findVolume, renameToBase, requireStorage, resolveFormatHint } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router, type TaskHandle } from "../contract.js";
import { readCloneRequest } from "./clone-request.js";
import { pathGuest, sim, startGuestTask, str } from "./context.js";
import { freeOnFailure, removeGuest, reserveGuest } from "./new-guest.js";

/** Owned (non-CD-ROM) volumes of a config: key -> volume. */
function diskVolumes(model: SimCluster, guest: GuestState, config: GuestConfig): Array<[string, VolumeState]> {
  const out: Array<[string, VolumeState]> = [];
  for (const [key, value] of Object.entries(config)) {
    if (!isDiskKey("qemu", key)) continue;
    const volid = driveVolume(String(value));
    if (!volid || isCdrom(String(value))) continue;
    const volume = findVolume(model.state, volid, guest.node);
    if (volume) out.push([key, volume]);
  }
  return out;
}

interface CloneJob {
  model: SimCluster;
  source: GuestState;
  clone: GuestState;
  config: GuestConfig;
  disks: Array<[string, VolumeState]>;
  target: string;
  full: boolean;
  storageId: string | undefined;
  format: string | undefined;
  name: string;
  description: string | undefined;
  pool: string | undefined;
}

/** The clone task's work: the new config, with each disk copied (full) or linked to its base. */
function copyToClone(job: CloneJob, task: TaskHandle, allocated: VolumeState[]): void {
  const { model, clone, config, disks, target, full, storageId, format, pool } = job;
  const newid = clone.vmid;
  const next: GuestConfig = {};
  for (const [key, value] of Object.entries(config)) {
    if (["lock", "template", "parent", "vmstate", "snapstate", "runningmachine", "runningcpu"].includes(key)) continue;
    if (isUnusedKey(key)) continue;
    next[key] = /^net\d+$/.test(key) ? withNewMac("qemu", key, String(value), model.newMac()) : value;
  }
  for (const [key, volume] of disks) {
    const storage = requireStorage(model.state, full ? (storageId ?? volume.storage) : volume.storage, target);
    const created = allocateVolume(model.state, {
      storage,
      node: target,
      vmid: newid,
      size: volume.size,
      content: "images",
      // a full copy: resolve_dst_disk_format (the source's format is the hint); linked: the base's
      format: full ? resolveFormatHint(storage, format ?? volume.format) : volume.format,
      ...(full ? {} : { parent: volume.volid }),
      ctime: model.now(),
    });
    allocated.push(created);
    task.log(`${full ? "create full clone" : "create linked clone"} of drive ${key} (${volume.volid})`);
    next[key] = withVolume("qemu", key, String(config[key]), created.volid);
  }
  // a clone gets its own cloud-init drive
  for (const [key, value] of Object.entries(next)) {
    if (!isDiskKey("qemu", key)) continue;
    const volid = driveVolume(String(value));
    if (!volid || !isCloudinitDrive(volid)) continue;
    const storage = full && storageId !== undefined ? storageId : (volid.split(":")[0] ?? "");
    const created = allocateCloudinit(model.state, storage, newid, target, model.now());
    allocated.push(created);
    next[key] = withVolume("qemu", key, String(value), created.volid);
  }
  next.name = job.name;
  if (job.description !== undefined) next.description = job.description;
  next.smbios1 = String(next.smbios1 ?? "").replace(/uuid=[0-9a-f-]+/, `uuid=${model.newUuid()}`) || `uuid=${model.newUuid()}`;
  if (next.vmgenid !== undefined) next.vmgenid = model.newUuid();
  clone.config = next;
  if (pool !== undefined) model.addToPool(pool, newid);
}

/** Checks a clone's target storage and node against the source's disks; returns those disks. */
function cloneDisks(
  ctx: HandlerContext,
  req: {
    model: SimCluster;
    source: GuestState;
    config: GuestConfig;
    full: boolean;
    isTemplate: boolean;
    storageId: string | undefined;
    format: string | undefined;
    target: string;
  },
): Array<[string, VolumeState]> {
  const { model, source, config, full, isTemplate, storageId, format, target } = req;
  if (!full) {
    if (storageId !== undefined) throw new PveApiError(500, "parameter 'storage' not allowed for linked clones");
    if (format !== undefined) throw new PveApiError(500, "parameter 'format' not allowed for linked clones");
  }
  const disks = diskVolumes(model, source, config);
  if (!full && !isTemplate && disks[0]) {
    throw new PveApiError(500, `Linked clone feature is not available for drive '${disks[0][0]}'`);
  }
  if (storageId !== undefined) {
    const storage = requireStorage(model.state, storageId, target);
    if (!storage.content.includes("images")) throw new PveApiError(500, `storage '${storageId}' does not support vm images`);
    ctx.checkPermission(`/storage/${storageId}`, ["Datastore.AllocateSpace"]);
  }
  if (target !== source.node) {
    const local = disks.find(([, v]) => !(findStorage(model.state, storageId ?? v.storage)?.shared ?? false));
    if (local) throw new PveApiError(500, `can't clone VM to node '${target}' (VM uses local storage)`);
  }

  return disks;
}

function cloneVm(ctx: HandlerContext): string {
  const { source, model, newid, pool, target, storageId, isTemplate, full } = readCloneRequest(ctx, "qemu");
  const format = str(ctx, "format");
  const snapname = str(ctx, "snapname");
  if (model.guest(newid)) throw new PveApiError(500, `unable to create VM ${newid}: config file already exists`);
  checkLock(source);
  let config = source.config;
  if (snapname !== undefined) {
    const snap = source.snapshots.find((s) => s.name === snapname);
    if (!snap) throw new PveApiError(500, `snapshot '${snapname}' does not exist`);
    config = snap.config;
  }
  const disks = cloneDisks(ctx, { model, source, config, full, isTemplate, storageId, format, target });

  // The worker takes the source's config-file lock (shared while it is stopped, exclusive while
  // it runs) and gives up after a second: a clone of a running VM waits for no other clone of it.
  if (!tryFlock(model.state, source.vmid, source.status === "running")) {
    return startGuestTask(ctx, {
      type: "qmclone",
      vmid: source.vmid,
      kind: "config",
      work: flockAtStart(model.state, "qemu", source.vmid),
    });
  }
  const unlockSource = () => releaseFlock(model.state, source.vmid);
  const clone = reserveGuest(model, { vmid: newid, type: "qemu", node: target, agentDelay: source.agentDelay }, "clone");
  const job: CloneJob = {
    model,
    source,
    clone,
    config,
    disks,
    target,
    full,
    storageId,
    format,
    name: str(ctx, "name") ?? `Copy-of-VM-${config.name ?? source.vmid}`,
    description: str(ctx, "description"),
    pool,
  };
  const bytes = full ? disks.reduce((sum, [, v]) => sum + v.size, 0) : 0;

  return startGuestTask(ctx, {
    type: "qmclone",
    vmid: source.vmid,
    kind: "clone",
    bytes,
    onFailure: () => {
      unlockSource();
      removeGuest(model, clone);
    },
    work: (task) =>
      freeOnFailure(
        model,
        target,
        () => removeGuest(model, clone),
        (allocated) => {
          try {
            copyToClone(job, task, allocated);
          } finally {
            unlockSource();
          }
        },
      ),
  });
}

function template(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  const disk = str(ctx, "disk");
  checkLock(guest);
  if (guest.snapshots.length > 0) throw new PveApiError(500, "unable to create template, because VM contains snapshots");
  if (guest.config.template === 1 && disk === undefined) throw new PveApiError(500, "you can't convert a template to a template");
  if (guest.status === "running") throw new PveApiError(500, "you can't convert a VM to template if VM is running");
  guest.config.template = 1;
  return startGuestTask(ctx, {
    type: "qmtemplate",
    vmid: guest.vmid,
    kind: "config",
    work: () => {
      for (const [key, volume] of diskVolumes(model, guest, guest.config)) {
        if (disk !== undefined && key !== disk) continue;
        if (volume.parent) continue;
        guest.config[key] = withVolume("qemu", key, String(guest.config[key]), renameToBase(model.state, volume.volid, guest.node));
      }
    },
  });
}

export function registerCloneHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/qemu/{vmid}/clone", cloneVm);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/template", template);
}
