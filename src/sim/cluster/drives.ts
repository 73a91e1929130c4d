// Disk keys and drive strings: which config keys hold volumes, and turning the allocation
// syntax `STORAGE:SIZE_GiB` into a real volume (`local-lvm:vm-100-disk-0,size=32G`).
import { PveApiError } from "../contract.js";
import { parseProps, printProps } from "./propstring.js";
import { formatDiskSize, GiB, parseDiskSize } from "./sizes.js";
import type { ClusterState, GuestType, VolumeState } from "./types.js";
import { allocateVolume, findStorage, findVolume, requireStorage, volumeOwner } from "./volumes.js";

const QEMU_DISK = /^(ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0)$/;
const LXC_DISK = /^(rootfs|mp\d+)$/;

export function isDiskKey(type: GuestType, key: string): boolean {
  return type === "qemu" ? QEMU_DISK.test(key) : LXC_DISK.test(key);
}

export function isUnusedKey(key: string): boolean {
  return /^unused\d+$/.test(key);
}

/** Keys that reference volumes (disks and unusedN). */
export function isVolumeKey(type: GuestType, key: string): boolean {
  return isDiskKey(type, key) || isUnusedKey(key);
}

export function driveDefaultKey(type: GuestType): string {
  return type === "qemu" ? "file" : "volume";
}

export interface Drive {
  /** The volume id, `none`, `cdrom` or a path. */
  file: string;
  props: Map<string, string>;
}

export function parseDrive(type: GuestType, text: string): Drive {
  const key = driveDefaultKey(type);
  const props = parseProps(text, key);
  const alias = type === "qemu" ? "volume" : "file";
  if (props.has(alias) && !props.has(key)) {
    props.set(key, props.get(alias) ?? "");
    props.delete(alias);
  }
  const file = props.get(key) ?? "";
  props.delete(key);
  return { file, props };
}

export function printDrive(type: GuestType, drive: Drive): string {
  const key = driveDefaultKey(type);
  const props = new Map(drive.props);
  props.set(key, drive.file);
  const text = printProps(props, key);
  // A required key (LXC `mp`) follows the default key, before the sorted optional ones.
  const mp = drive.props.get("mp");
  if (type !== "lxc" || mp === undefined) return text;
  return text.replace(`,mp=${mp}`, "").replace(drive.file, `${drive.file},mp=${mp}`);
}

export function isCdrom(drive: Drive): boolean {
  return drive.props.get("media") === "cdrom" || drive.file === "cdrom";
}

/** A drive's volume id when it references a storage volume (not none/cdrom/a path). */
export function driveVolume(drive: Drive): string | undefined {
  if (drive.file === "none" || drive.file === "cdrom" || drive.file.startsWith("/")) return undefined;
  return drive.file.includes(":") ? drive.file : undefined;
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

const ALLOCATION = /^([a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]):(\d+(?:\.\d+)?)$/;
const CLOUDINIT = /^([a-zA-Z][a-zA-Z0-9\-_.]*[a-zA-Z0-9]):cloudinit$/;

/** True for a cloud-init drive's volume (`local-lvm:vm-100-cloudinit`, `shared:100/vm-100-cloudinit.qcow2`). */
export function isCloudinitVolume(volid: string): boolean {
  return /[:/]vm-\d+-cloudinit(\.\w+)?$/.test(volid);
}

/** Allocates the cloud-init drive of a VM (`vm-<vmid>-cloudinit`, 4 MiB). */
export function allocateCloudinit(state: ClusterState, storageId: string, vmid: number, node: string, now: number): VolumeState {
  const storage = requireStorage(state, storageId, node);
  if (!storage.content.includes("images")) throw new PveApiError(500, `storage '${storageId}' does not support vm images`);
  return allocateVolume(state, { storage, node, vmid, size: 4 * 1024 * 1024, content: "images", name: `vm-${vmid}-cloudinit`, ctime: now });
}

/**
 * Returns the drive string to store: allocation syntax becomes a new volume, existing volumes
 * are checked and get their `size`.
 */
export function materialiseDrive(opts: MaterialiseOptions): string {
  const { state, type, vmid, node, key } = opts;
  if (isUnusedKey(key)) return opts.value;
  const drive = parseDrive(type, opts.value);
  const cloudinit = type === "qemu" ? CLOUDINIT.exec(drive.file) : null;
  if (cloudinit) {
    const volume = allocateCloudinit(state, cloudinit[1] ?? "", vmid, node, opts.now);
    opts.allocated.push(volume);
    drive.file = volume.volid;
    drive.props.set("media", "cdrom");
    drive.props.delete("size");
    return printDrive(type, drive);
  }
  const alloc = ALLOCATION.exec(drive.file);
  if (alloc && !isCdrom(drive)) {
    const storageId = alloc[1] ?? "";
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
    let size = Math.round(Number(alloc[2]) * GiB);
    if (key === "efidisk0") size = drive.props.get("efitype") === "4m" ? 540_672 : 131_072;
    if (key === "tpmstate0") size = 4 * 1024 * 1024;
    const importFrom = drive.props.get("import-from");
    if (importFrom) {
      const source = findVolume(state, importFrom, node);
      if (!source) throw new PveApiError(500, `volume '${importFrom}' does not exist`);
      size = Math.max(size, source.size);
      drive.props.delete("import-from");
    }
    const format = drive.props.get("format");
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
    drive.file = volume.volid;
    drive.props.set("size", formatDiskSize(size));
    return printDrive(type, drive);
  }
  const volid = driveVolume(drive);
  if (volid) {
    const storageId = volid.split(":")[0] ?? "";
    if (!findStorage(state, storageId)) throw new PveApiError(500, `storage '${storageId}' does not exist`);
    const volume = findVolume(state, volid, node);
    if (!volume) throw new PveApiError(500, `volume '${volid}' does not exist`);
    if (!isCdrom(drive) && !drive.props.has("size")) drive.props.set("size", formatDiskSize(volume.size));
    return printDrive(type, drive);
  }
  return opts.value;
}

/** Bytes of a drive from its `size=` option. */
export function driveSize(type: GuestType, text: string): number {
  const size = parseDrive(type, text).props.get("size");
  return size ? (parseDiskSize(size) ?? 0) : 0;
}

/** True when the volume belongs to this guest (only owned volumes are freed or moved to unusedN). */
export function ownsVolume(vmid: number, volid: string): boolean {
  return volumeOwner(volid) === vmid;
}

function allocationRank(type: GuestType, key: string): number {
  if (type === "lxc") {
    if (key === "rootfs") return 0;
    const m = /^mp(\d+)$/.exec(key);
    return m ? 1 + Number(m[1]) : 10_000;
  }
  if (key === "efidisk0") return 0;
  if (key === "tpmstate0") return 9_000;
  const m = /^(ide|sata|scsi|virtio)(\d+)$/.exec(key);
  if (!m) return 10_000;
  return 1 + ["ide", "sata", "scsi", "virtio"].indexOf(m[1] ?? "") * 100 + Number(m[2]);
}

/** Config keys in the order PVE allocates their volumes (so vm-<vmid>-disk-N numbers match). */
export function inAllocationOrder(type: GuestType, keys: string[]): string[] {
  return [...keys].sort((a, b) => allocationRank(type, a) - allocationRank(type, b) || a.localeCompare(b));
}
