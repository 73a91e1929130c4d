// Restore from vzdump archives: POST /nodes/{node}/qemu with `archive` (qmrestore) and
// POST /nodes/{node}/lxc with `restore=1` and the archive as `ostemplate` (vzrestore).
import { isCloudinitDrive, storageOfVolume, volumeOf } from "../../pve/index.js";
import { allocateCloudinit, driveSize, driveVolume, isDiskKey, parseDrive, withVolume } from "../cluster/drives.js";
import type { SimCluster } from "../cluster/model.js";
import { nicMac, withNewMac } from "../cluster/nics.js";
import type { BackupContent, GuestConfig, GuestState, GuestType, VolumeState } from "../cluster/types.js";
import {
  allocateVolume,
  containerFormat,
  findVolume,
  isFileStorage,
  removeVolume,
  renameToBase,
  requireStorage,
  resolveFormatHint,
} from "../cluster/volumes.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { flag, nodeParam, str, vmidParam } from "./context.js";
import { referencedVolumes } from "./guest-destroy.js";
import { startContainer } from "./lxc-power.js";
import { blankGuest, freeOnFailure, removeGuest } from "./new-guest.js";
import { startVm } from "./qemu-power.js";

interface RestoreRequest {
  ctx: HandlerContext;
  model: SimCluster;
  type: GuestType;
  archive: string;
  /** Config options given with the request; they override the archive's. */
  overrides: GuestConfig;
  /** Target storage for every disk (VM default: where each disk came from; CT: `local`). */
  storage?: string;
  pool?: string;
  start: boolean;
}

/** The archive's file as PVE names it in logs (the volid on a storage without a path). */
function archivePath(model: SimCluster, volid: string): string {
  const storage = model.state.storages.find((st) => volid.startsWith(`${st.id}:backup/`));
  return storage?.path ? `${storage.path}/dump/${volid.slice(storage.id.length + "backup/".length + 1)}` : volid;
}

function label(type: GuestType): "VM" | "CT" {
  return type === "qemu" ? "VM" : "CT";
}

/**
 * pve-container's create_vm, before it forks: the storage every restored volume goes to
 * (`storage`, else `local`) must be enabled on the node, hold container directories and grant
 * Datastore.AllocateSpace.
 */
function checkContainerStorage(ctx: HandlerContext, model: SimCluster, id: string, node: string): void {
  const storage = requireStorage(model.state, id, node);
  if (!storage.content.includes("rootdir")) {
    throw new PveApiError(400, "Parameter verification failed.", { storage: `storage '${id}' does not support container directories` });
  }
  ctx.checkPermission(`/storage/${id}`, ["Datastore.AllocateSpace"]);
}

/** Sync checks of a restore and the archive's content. */
function restoreArchive(req: RestoreRequest): string {
  const { ctx, model, type, archive } = req;
  const node = nodeParam(ctx);
  const vmid = vmidParam(ctx);
  const emsg = `unable to restore ${label(type)} ${vmid} -`;
  const volume = findVolume(model.state, archive, node);
  if (volume?.content !== "backup") throw new PveApiError(500, `volume '${archive}' does not exist`);
  const content = volume?.backup;
  if (!content || content.type !== type) {
    throw new PveApiError(500, `${emsg} archive '${archive}' is not a ${type === "qemu" ? "VM" : "container"} backup`);
  }
  const force = flag(ctx, "force");
  const existing = model.guest(vmid);
  if (existing) {
    if (!force || existing.type !== type || existing.node !== node) {
      throw new PveApiError(500, `${emsg} ${label(existing.type)} ${vmid} already exists on node '${existing.node}'`);
    }
    if (existing.config.protection === 1) throw new PveApiError(500, `${emsg} protection mode enabled`);
    if (existing.status === "running") throw new PveApiError(500, `${emsg} ${type === "qemu" ? "vm" : "container"} is running`);
  }
  if (!ctx.hasPermission(`/vms/${vmid}`, ["VM.Allocate"])) {
    const viaPool = req.pool !== undefined && ctx.hasPermission(`/pool/${req.pool}`, ["VM.Allocate"]);
    const viaBackup = existing !== undefined && force && ctx.hasPermission(`/vms/${vmid}`, ["VM.Backup"]);
    if (!viaPool && !viaBackup) ctx.checkPermission(`/vms/${vmid}`, ["VM.Allocate"]);
  }
  if (type === "lxc") checkContainerStorage(ctx, model, req.storage ?? "local", node);
  else {
    for (const [key, disk] of Object.entries(content.disks)) {
      const storage = requireStorage(model.state, req.storage ?? disk.storage, node);
      if (!storage.content.includes("images")) {
        throw new PveApiError(500, `${emsg} storage '${storage.id}' does not support vm images (${key})`);
      }
    }
  }

  const guest = existing ?? blankGuest({ vmid, type, node, agentDelay: model.state.agentDelay }, {});
  const previous = { ...guest.config };
  guest.config = { ...guest.config, lock: "create" };
  if (!existing) model.state.guests.push(guest);
  const undo = () => {
    if (existing) guest.config = previous;
    else removeGuest(model, guest);
  };
  return ctx.tasks.start({
    node,
    type: type === "qemu" ? "qmrestore" : "vzrestore",
    id: String(vmid),
    kind: "create",
    bytes: volume.size,
    onFailure: undo,
    work: (task) => {
      // qemu-server pipes the vma through its extractor, pve-container extracts the tar
      const path = archivePath(model, archive);
      task.log(type === "qemu" ? `restore vma archive: ${path}` : `extracting archive '${path}'`);
      freeOnFailure(model, node, undo, (allocated) => {
        if (existing) {
          for (const volid of referencedVolumes(guest)) removeVolume(model.state, volid, node);
          guest.snapshots = [];
          guest.pending = {};
          guest.pendingDelete = {};
        }
        guest.config = restoredConfig(req, guest, content, allocated, (l) => task.log(l));
        if (req.pool !== undefined) model.addToPool(req.pool, vmid);
      });
      // As after a create (qemu-server's restorefn, pve-container's create_vm): with start=1
      // the worker calls the start API once the guest is unlocked, which forks a start task of
      // its own; the restore task does not wait for it.
      if (req.start && guest.config.template !== 1) {
        if (type === "qemu") task.log("Execute autostart");
        const start = type === "qemu" ? () => startVm(model, guest, false) : () => startContainer(model, guest, false);
        ctx.tasks.start({ node, type: type === "qemu" ? "qmstart" : "vzstart", id: String(vmid), kind: "start", work: start });
      }
    },
  });
}

function restoredConfig(
  req: RestoreRequest,
  guest: GuestState,
  content: BackupContent,
  allocated: VolumeState[],
  log: (l: string) => void,
): GuestConfig {
  const { model, type } = req;
  const config: GuestConfig = {};
  for (const [key, value] of Object.entries(content.config)) {
    if (/^unused\d+$/.test(key)) continue;
    // qemu-server comments a backup=0 drive out of the restored config
    if (type === "qemu" && isDiskKey(type, key) && !content.disks[key] && parseDrive(type, key, String(value)).backup === false) continue;
    config[key] = value;
  }
  for (const [key, disk] of Object.entries(disksToCreate(content))) {
    const storage = requireStorage(model.state, req.storage ?? disk.storage, guest.node);
    const volume = allocateVolume(model.state, {
      storage,
      node: guest.node,
      vmid: guest.vmid,
      size: disk.size,
      content: type === "qemu" ? "images" : "rootdir",
      format: type === "lxc" ? containerFormat(storage, disk.size) : isFileStorage(storage) ? disk.format : "raw",
      ctime: model.now(),
    });
    allocated.push(volume);
    config[key] = withVolume(type, key, String(content.config[key]), volume.volid, disk.size);
    log(`map '${key}' to '${volume.volid}'`);
  }
  if (type === "qemu") for (const volume of restoreCloudinitDrives(req, guest, config, log)) allocated.push(volume);
  const unique = flag(req.ctx, "unique");
  if (type === "qemu") {
    // qemu-server rewrites the archive's lines, then lays the request's options over them: a
    // NIC the request gives keeps the MAC it gives.
    renewQemuIdentity(model, config, unique);
    Object.assign(config, req.overrides);
  } else {
    // pve-container merges the archive's config into the request's, and with `unique` each
    // archived NIC (with a new hwaddr) replaces a NIC of the same key the request gave.
    Object.assign(config, req.overrides);
    if (unique) for (const key of netKeys(content.config)) config[key] = withNewMac(type, key, String(content.config[key]), model.newMac());
  }
  if (config.template === 1 || config.template === "1") {
    for (const [key, value] of Object.entries(config)) {
      if (!isDiskKey(type, key) || !content.disks[key]) continue;
      const volid = volumeOf(String(value)) ?? "";
      config[key] = withVolume(type, key, String(value), renameToBase(model.state, volid, guest.node));
    }
  }
  return config;
}

/**
 * The volumes a restore creates: the archive's disks and, for a container, every volume mount
 * point the backup left out (backup=0): pve-container's restore takes all mount points of the
 * archived config and allocates each anew at its `size`, so it comes back empty with its options.
 */
function disksToCreate(content: BackupContent): BackupContent["disks"] {
  if (content.type !== "lxc") return content.disks;
  const disks = { ...content.disks };
  for (const [key, value] of Object.entries(content.config)) {
    if (disks[key] || !isDiskKey("lxc", key)) continue;
    const volid = driveVolume(String(value));
    if (volid === undefined) continue; // bind and device mounts are restored as they were
    const size = driveSize("lxc", key, String(value));
    if (size <= 0) throw new Error(`unable to detect disk size - please specify ${key} (size)`);
    disks[key] = { size, storage: storageOfVolume(volid) ?? "", format: "raw" };
  }
  return disks;
}

/**
 * qemu-server's parse_backup_hints and restore_allocate_devices: a cloud-init drive on an
 * ide/sata/scsi slot gets the restored VM's own `vm-<vmid>-cloudinit` (on `storage`, else where
 * the archived one was; in the archived volume's format where the storage supports it), never
 * the source VM's volume. Its content is generated again at the next start.
 */
function restoreCloudinitDrives(req: RestoreRequest, guest: GuestState, config: GuestConfig, log: (l: string) => void): VolumeState[] {
  const { model } = req;
  const created: VolumeState[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (!/^(ide|sata|scsi)\d+$/.test(key) || !isCloudinitDrive(String(value))) continue;
    const archived = volumeOf(String(value)) ?? "";
    const storageId = req.storage ?? storageOfVolume(archived) ?? "";
    const storage = requireStorage(model.state, storageId, guest.node);
    // checked_volume_format reads the format from the volume's name (a file's extension, else raw)
    const format = resolveFormatHint(storage, /\.(raw|qcow2|vmdk)$/.exec(archived)?.[1] ?? "raw");
    const volume = allocateCloudinit(model.state, storage.id, guest.vmid, guest.node, model.now(), format);
    created.push(volume);
    log(`new volume ID is '${volume.volid}'`);
    config[key] = withVolume("qemu", key, String(value), volume.volid);
  }
  return created;
}

const netKeys = (config: GuestConfig) => Object.keys(config).filter((k) => /^net\d+$/.test(k));

/**
 * A restored VM's identity as qemu-server's restore_update_config_line leaves it: vmgenid is
 * always new (unless 0: off); with `unique` every NIC with a MAC gets a new one and SMBIOS
 * type 1 a new uuid. Without `unique` the archive's MACs and uuid are kept.
 */
function renewQemuIdentity(model: SimCluster, config: GuestConfig, unique: boolean): void {
  if (config.vmgenid !== undefined && String(config.vmgenid) !== "0") config.vmgenid = model.newUuid();
  if (!unique) return;
  for (const key of netKeys(config)) {
    if (nicMac("qemu", key, String(config[key])) !== undefined) config[key] = withNewMac("qemu", key, String(config[key]), model.newMac());
  }
  if (config.smbios1 !== undefined) config.smbios1 = String(config.smbios1).replace(/uuid=[0-9a-fA-F-]+/, `uuid=${model.newUuid()}`);
}

function restoreOverrides(ctx: HandlerContext, control: Set<string>, type: GuestType): GuestConfig {
  const out: GuestConfig = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || control.has(key)) continue;
    if (type === "qemu" && isDiskKey("qemu", key)) {
      throw new PveApiError(400, "Parameter verification failed.", { [key]: "option conflicts with option 'archive'" });
    }
    if (type === "lxc" && isDiskKey("lxc", key)) {
      throw new PveApiError(501, "restoring a container onto explicit mount points is not supported by the simulator");
    }
    out[key] = value;
  }
  return out;
}

/**
 * The restore a create request asks for (qemu `archive=`, lxc `restore=1`): target storage,
 * pool, start and the options that override the archive's config come from the request;
 * `control` names the create parameters that are not config options.
 */
export function restoreOnCreate(ctx: HandlerContext, model: SimCluster, type: GuestType, archive: string, control: Set<string>): string {
  // qemu-server puts each disk back on its archived storage; pve-container's create_vm puts every
  // volume mount point on `storage`, which defaults to `local`
  const storage = str(ctx, "storage") ?? (type === "lxc" ? "local" : undefined);
  const pool = str(ctx, "pool");
  return restoreArchive({
    ctx,
    model,
    type,
    archive,
    overrides: restoreOverrides(ctx, control, type),
    ...(storage !== undefined ? { storage } : {}),
    ...(pool !== undefined ? { pool } : {}),
    start: flag(ctx, "start"),
  });
}
