// Disk keys and drive strings: which config keys hold volumes, and turning the allocation
// syntax `STORAGE:SIZE_GiB` into a real volume (`local-lvm:vm-100-disk-0,size=32G`).
// Parsing and printing are pve/'s (PVE's schema, PVE's key order and spellings).
import {
  driveBusOf,
  isUnusedKey,
  type PropertyValues,
  parseNewVolume,
  isCdrom as pveIsCdrom,
  isDiskKey as pveIsDiskKey,
  parseDrive as pveParseDrive,
  printDrive as pvePrintDrive,
  storageOfVolume,
  volumeOf,
} from "../../pve/index.js";
import { PveApiError } from "../contract.js";
import type { ClusterState, GuestType, VolumeState } from "./types.js";
import { allocateVolume, containerFormat, findStorage, findVolume, isFileStorage, requireStorage, volumeOwner } from "./volumes.js";

/** Disks and mount points attached to the guest (qemu ide/sata/scsi/virtio/efidisk0/tpmstate0, lxc rootfs/mpN). */
export function isDiskKey(type: GuestType, key: string): boolean {
  return isVolumeKey(type, key) && !isUnusedKey(key);
}

/** Keys that reference volumes (disks and unusedN). */
export function isVolumeKey(type: GuestType, key: string): boolean {
  return pveIsDiskKey(key, type);
}

/**
 * A drive or mount point, parsed with PVE's schema (volume under `file` for qemu, `volume` for
 * lxc; `size` in bytes). Numbers stay as written: PVE stores `mbps_rd=10.0` as given, and the
 * simulator prints parsed drives back.
 */
export function parseDrive(type: GuestType, key: string, text: string): PropertyValues {
  return pveParseDrive(key, text, type, { numbersAsText: true });
}

function printDrive(type: GuestType, key: string, drive: PropertyValues): string {
  return pvePrintDrive(key, drive, type);
}

/** The drive string with another volume (and, when given, another `size`), everything else kept. */
export function withVolume(type: GuestType, key: string, text: string, volid: string, size?: number): string {
  const drive = parseDrive(type, key, text);
  drive[type === "qemu" ? "file" : "volume"] = volid;
  if (size !== undefined) drive.size = size;
  return printDrive(type, key, drive);
}

/**
 * True for a CD-ROM drive: PVE's `media=cdrom`, and also the bare `cdrom` volume (the host's
 * drive) written without `media=`, which the simulator has always treated as a CD-ROM rather
 * than a disk without a volume.
 */
export function isCdrom(text: string): boolean {
  return pveIsCdrom(text) || volumeOf(text) === "cdrom";
}

/** A drive's volume id when it references a storage volume (not none/cdrom/a path). */
export function driveVolume(text: string): string | undefined {
  const volume = volumeOf(text);
  if (volume === undefined || volume.startsWith("/")) return undefined;
  return storageOfVolume(volume) !== undefined ? volume : undefined;
}

export interface MaterialiseOptions {
  state: ClusterState;
  type: GuestType;
  vmid: number;
  node: string;
  key: string;
  value: string;
  now: number;
  /** Collected: volumes created while materialising (freed again if the operation fails). */
  allocated: VolumeState[];
}

// `STORAGE:cloudinit` asks for the VM's cloud-init drive.
const CLOUDINIT = /^([a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]):cloudinit$/;

/**
 * Allocates the cloud-init drive of a VM (`vm-<vmid>-cloudinit`, 4 MiB) in the drive's `format=`;
 * without one, qemu-server's create_disks makes it qcow2 on a storage with a path, raw elsewhere.
 */
export function allocateCloudinit(
  state: ClusterState,
  storageId: string,
  vmid: number,
  node: string,
  now: number,
  format?: string,
): VolumeState {
  const storage = requireStorage(state, storageId, node);
  if (!storage.content.includes("images")) throw new PveApiError(500, `storage '${storageId}' does not support vm images`);
  const name = `vm-${vmid}-cloudinit`;
  const chosen = format ?? (isFileStorage(storage) ? "qcow2" : "raw");
  return allocateVolume(state, { storage, node, vmid, size: 4 * 1024 * 1024, content: "images", name, format: chosen, ctime: now });
}

/** The drive's `format=`: what to allocate in. PVE drops it from the drive once the volume exists. */
function takeFormat(drive: PropertyValues): string | undefined {
  const format = typeof drive.format === "string" ? drive.format : undefined;
  delete drive.format;
  return format;
}

/**
 * Returns the drive string to store: allocation syntax becomes a new volume, existing volumes
 * are checked and get their `size`.
 */
export function materialiseDrive(opts: MaterialiseOptions): string {
  const { state, type, vmid, node, key } = opts;
  if (isUnusedKey(key)) return opts.value;
  const drive = parseDrive(type, key, opts.value);
  const volumeKey = type === "qemu" ? "file" : "volume";
  const file = String(drive[volumeKey] ?? "");
  const cloudinit = type === "qemu" ? CLOUDINIT.exec(file) : null;
  if (cloudinit) {
    const volume = allocateCloudinit(state, cloudinit[1] ?? "", vmid, node, opts.now, takeFormat(drive));
    opts.allocated.push(volume);
    drive[volumeKey] = volume.volid;
    drive.media = "cdrom";
    delete drive.size;
    return printDrive(type, key, drive);
  }
  const alloc = parseNewVolume(file);
  if (alloc?.storage !== undefined && !isCdrom(opts.value)) {
    const storageId = alloc.storage;
    const storage = requireStorage(state, storageId, node);
    const content = type === "qemu" ? "images" : "rootdir";
    if (!storage.content.includes(content)) {
      throw new PveApiError(
        500,
        type === "qemu"
          ? `storage '${storageId}' does not support vm images`
          : `storage '${storageId}' does not support container directories`,
      );
    }
    let size = alloc.bytes;
    if (key === "efidisk0") size = drive.efitype === "4m" ? 540_672 : 131_072;
    if (key === "tpmstate0") size = 4 * 1024 * 1024;
    const importFrom = drive["import-from"];
    if (typeof importFrom === "string" && importFrom !== "") {
      const source = findVolume(state, importFrom, node);
      if (!source) throw new PveApiError(500, `volume '${importFrom}' does not exist`);
      size = Math.max(size, source.size);
      delete drive["import-from"];
    }
    // qemu-server's create_disks: the volume is made in `format=` (tpmstate0 always raw), and
    // the key is deleted from the drive ("no longer needed"); the volume name says the format.
    const requested = takeFormat(drive);
    const format = type === "lxc" ? containerFormat(storage, size) : key === "tpmstate0" ? "raw" : requested;
    const volume = allocateVolume(state, {
      storage,
      node,
      vmid,
      size,
      content,
      ...(format ? { format } : {}),
      ctime: opts.now,
    });
    opts.allocated.push(volume);
    drive[volumeKey] = volume.volid;
    drive.size = size;
    return printDrive(type, key, drive);
  }
  const volid = driveVolume(opts.value);
  if (volid) {
    const storageId = storageOfVolume(volid) ?? "";
    if (!findStorage(state, storageId)) throw new PveApiError(500, `storage '${storageId}' does not exist`);
    const volume = findVolume(state, volid, node);
    if (!volume) throw new PveApiError(500, `volume '${volid}' does not exist`);
    if (!isCdrom(opts.value) && drive.size === undefined) drive.size = volume.size;
    return printDrive(type, key, drive);
  }
  if (type === "lxc") return opts.value;
  // none, cdrom or a host path: qemu-server still prints the drive in its own order, without a size
  if (file === "none" || file === "cdrom") delete drive.size;
  return printDrive(type, key, drive);
}

/** Bytes of a drive from its `size=` option. */
export function driveSize(type: GuestType, key: string, text: string): number {
  const size = parseDrive(type, key, text).size;
  return typeof size === "number" ? size : 0;
}

/** True when the volume belongs to this guest (only owned volumes are freed or moved to unusedN). */
export function ownsVolume(vmid: number, volid: string): boolean {
  return volumeOwner(volid) === vmid;
}

// qemu-server's create_disks walks foreach_volume, i.e. valid_drive_names: every ide, then scsi,
// virtio and sata slot in number order, then efidisk0 and tpmstate0. Containers: rootfs, then mpN.
const QEMU_BUS_ORDER = ["ide", "scsi", "virtio", "sata"];

function allocationRank(type: GuestType, key: string): number {
  if (type === "lxc") {
    if (key === "rootfs") return 0;
    const m = /^mp(\d+)$/.exec(key);
    return m ? 1 + Number(m[1]) : 10_000;
  }
  if (key === "efidisk0") return 8_000;
  if (key === "tpmstate0") return 9_000;
  const bus = driveBusOf(key);
  if (bus === undefined) return 10_000;
  return QEMU_BUS_ORDER.indexOf(bus) * 1_000 + Number(key.slice(bus.length));
}

/** Config keys in the order PVE allocates their volumes (so vm-<vmid>-disk-N numbers match). */
export function inAllocationOrder(type: GuestType, keys: string[]): string[] {
  return [...keys].sort((a, b) => allocationRank(type, a) - allocationRank(type, b) || a.localeCompare(b));
}
