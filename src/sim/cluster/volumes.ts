// Volumes on storages: naming (vm-<vmid>-disk-N), allocation, lookup, removal.
import { PveApiError } from "../contract.js";
import type { ClusterState, StorageState, VolumeState } from "./types.js";

// storages with a path, whose volumes are files named <vmid>/<name>.<format> (btrfs keeps the
// directory plugin's names and stores a raw image as a subvolume holding disk.raw)
const FILE_BASED = new Set(["dir", "btrfs", "nfs", "cifs"]);

export function isFileStorage(storage: StorageState): boolean {
  return FILE_BASED.has(storage.type);
}

export function storageOnNode(storage: StorageState, node: string): boolean {
  return storage.enabled && (storage.nodes === undefined || storage.nodes.includes(node));
}

export function findStorage(state: ClusterState, id: string): StorageState | undefined {
  return state.storages.find((s) => s.id === id);
}

/** A storage usable on `node`, or PVE's error. */
export function requireStorage(state: ClusterState, id: string, node: string): StorageState {
  const storage = findStorage(state, id);
  if (!storage) throw new PveApiError(500, `storage '${id}' does not exist`);
  if (!storageOnNode(storage, node)) {
    throw new PveApiError(500, `storage '${id}' is not available on node '${node}'`);
  }
  return storage;
}

/**
 * Volumes by volid and by (storage, owner vmid), so that allocating a disk costs the owner's own
 * volumes instead of a pass over every volume in the cluster (20,000 creates were quadratic).
 * `state.volumes` stays the one truth (it is what --state files hold): the index is derived from
 * it, kept per array, and rebuilt whenever the array changed behind its back (length or last
 * element differ from what the index last saw) — so a handler that still pushes directly costs
 * one rebuild, never a wrong answer.
 */
interface VolumeIndex {
  byVolid: Map<string, VolumeState[]>;
  byOwner: Map<string, Set<VolumeState>>;
  length: number;
  last: VolumeState | undefined;
}

const indexes = new WeakMap<VolumeState[], VolumeIndex>();

function ownerKey(storage: string, vmid: number | undefined): string {
  return `${storage}\0${vmid ?? ""}`;
}

function addToIndex(index: VolumeIndex, volume: VolumeState): void {
  const same = index.byVolid.get(volume.volid);
  if (same) same.push(volume);
  else index.byVolid.set(volume.volid, [volume]);
  const key = ownerKey(volume.storage, volumeOwner(volume.volid));
  const owned = index.byOwner.get(key);
  if (owned) owned.add(volume);
  else index.byOwner.set(key, new Set([volume]));
}

function dropFromIndex(index: VolumeIndex, volume: VolumeState): void {
  const same = index.byVolid.get(volume.volid)?.filter((v) => v !== volume) ?? [];
  if (same.length > 0) index.byVolid.set(volume.volid, same);
  else index.byVolid.delete(volume.volid);
  index.byOwner.get(ownerKey(volume.storage, volumeOwner(volume.volid)))?.delete(volume);
}

function volumeIndex(state: ClusterState): VolumeIndex {
  const volumes = state.volumes;
  const known = indexes.get(volumes);
  if (known && known.length === volumes.length && known.last === volumes.at(-1)) return known;
  const index: VolumeIndex = { byVolid: new Map(), byOwner: new Map(), length: volumes.length, last: volumes.at(-1) };
  for (const volume of volumes) addToIndex(index, volume);
  indexes.set(volumes, index);
  return index;
}

/** Records that `state.volumes` now matches the index again (after a change made through it). */
function synced(state: ClusterState, index: VolumeIndex): void {
  index.length = state.volumes.length;
  index.last = state.volumes.at(-1);
}

/** Adds a volume to the cluster (every new volume should come through here or allocateVolume). */
export function addVolume(state: ClusterState, volume: VolumeState): void {
  const index = volumeIndex(state);
  state.volumes.push(volume);
  addToIndex(index, volume);
  synced(state, index);
}

/** Removes this very volume object (backup pruning, destroy). */
export function dropVolume(state: ClusterState, volume: VolumeState): void {
  const index = volumeIndex(state);
  const at = state.volumes.indexOf(volume);
  if (at < 0) return;
  state.volumes.splice(at, 1);
  dropFromIndex(index, volume);
  synced(state, index);
}

/** Volumes visible on `node` (node-local ones of that node plus shared ones). */
export function volumesOn(state: ClusterState, storageId: string, node: string): VolumeState[] {
  const storage = findStorage(state, storageId);
  if (!storage) return [];
  return state.volumes.filter((v) => v.storage === storageId && (storage.shared || v.node === node));
}

export function findVolume(state: ClusterState, volid: string, node: string): VolumeState | undefined {
  const storageId = volid.split(":")[0] ?? "";
  const storage = findStorage(state, storageId);
  if (!storage) return undefined;
  return volumeIndex(state)
    .byVolid.get(volid)
    ?.find((v) => v.storage === storageId && (storage.shared || v.node === node));
}

/** The part after `storage:`. */
export function volumeName(volid: string): string {
  const i = volid.indexOf(":");
  return i < 0 ? volid : volid.slice(i + 1);
}

/** `vm-100-disk-0` (the last path element without extension). */
export function volumeBaseName(volid: string): string {
  const name = volumeName(volid).split("/").pop() ?? "";
  return name.replace(/\.(raw|qcow2|vmdk|subvol)$/, "");
}

/** The vmid that owns a volume by name (vm-<vmid>-..., base-<vmid>-..., subvol-<vmid>-...). */
export function volumeOwner(volid: string): number | undefined {
  const m = /^(?:vm|base|subvol|basevol)-(\d+)-/.exec(volumeBaseName(volid));
  return m ? Number(m[1]) : undefined;
}

function nextDiskIndex(state: ClusterState, storage: StorageState, node: string, vmid: number): number {
  const used = new Set<number>();
  const owned = volumeIndex(state).byOwner.get(ownerKey(storage.id, vmid)) ?? [];
  for (const v of owned) {
    if (!storage.shared && v.node !== node) continue;
    // pve-storage's find_free_diskname counts every kind of disk of the vmid (vm, base, subvol, basevol)
    const m = /^(?:vm|base|subvol|basevol)-(\d+)-disk-(\d+)$/.exec(volumeBaseName(v.volid));
    if (m && Number(m[1]) === vmid) used.add(Number(m[2]));
  }
  let n = 0;
  while (used.has(n)) n++;
  return n;
}

export interface AllocateOptions {
  storage: StorageState;
  node: string;
  vmid: number;
  size: number;
  content: "images" | "rootdir";
  format?: string;
  /** A fixed name (cloud-init: vm-<vmid>-cloudinit); default vm-<vmid>-disk-N. */
  name?: string;
  parent?: string;
  ctime: number;
}

/**
 * The format pve-container's alloc_disk picks for a container volume (rootfs, mpN, and the copy
 * made by a full clone or move_volume): a storage with a path (dir, nfs, cifs) makes a raw image
 * holding an ext4 file system when a size is asked for and a plain directory (`subvol`) for size
 * 0; a ZFS pool always makes a dataset (`subvol`, with the size as refquota); block storages
 * (lvm, lvmthin, rbd) always make a raw image.
 */
export function containerFormat(storage: StorageState, bytes: number): "raw" | "subvol" {
  if (storage.type === "zfspool") return "subvol";
  if (isFileStorage(storage)) return bytes > 0 ? "raw" : "subvol";
  return "raw";
}

/**
 * PVE::Storage::storage_default_format: the storage's `format` option, else its plugin's default,
 * raw for every plugin modelled here (dir, nfs and cifs included: qcow2 only when asked for).
 * The simulator models no per-storage `format` option.
 */
export function defaultFormat(_storage: StorageState): string {
  return "raw";
}

/** Image formats each storage type's plugin accepts (pve-storage's plugindata `format`; LVM: raw without snapshot-as-volume-chain). */
const VALID_FORMATS: Record<StorageState["type"], string[]> = {
  dir: ["raw", "qcow2", "vmdk", "subvol"],
  nfs: ["raw", "qcow2", "vmdk"],
  cifs: ["raw", "qcow2", "vmdk"],
  btrfs: ["raw", "subvol"],
  zfspool: ["raw", "subvol"],
  lvm: ["raw"],
  lvmthin: ["raw"],
  rbd: ["raw"],
};

/**
 * PVE::Storage::resolve_format_hint: the hint when the storage supports it, else the plugin's
 * default (raw for every plugin modelled here).
 */
export function resolveFormatHint(storage: StorageState, hint: string | undefined): string {
  return hint !== undefined && VALID_FORMATS[storage.type].includes(hint) ? hint : "raw";
}

export function allocateVolume(state: ClusterState, opts: AllocateOptions): VolumeState {
  const { storage, node, vmid } = opts;
  const format = opts.format ?? defaultFormat(storage);
  // a subvol is named subvol-<vmid>-disk-N (and `.subvol` on file storages) instead of vm-…
  const prefix = format === "subvol" ? "subvol" : "vm";
  const base = opts.name ?? `${prefix}-${vmid}-disk-${nextDiskIndex(state, storage, node, vmid)}`;
  let volname: string;
  if (isFileStorage(storage)) {
    const own = `${vmid}/${base}.${format}`;
    // a btrfs linked clone is a subvolume snapshot: its name does not mention the base
    volname = opts.parent && storage.type !== "btrfs" ? `${volumeName(opts.parent)}/${own}` : own;
  } else {
    volname = opts.parent ? `${volumeBaseName(opts.parent)}/${base}` : base;
  }
  const volid = `${storage.id}:${volname}`;
  if (findVolume(state, volid, node)) throw new PveApiError(500, `volume '${volid}' already exists`);
  assertThickLvmRoom(state, storage, node, base, opts.size);
  const volume: VolumeState = {
    volid,
    storage: storage.id,
    content: opts.content,
    format,
    size: opts.size,
    ctime: opts.ctime,
    vmid,
    ...(storage.shared ? {} : { node }),
    ...(opts.parent ? { parent: opts.parent } : {}),
  };
  addVolume(state, volume);
  return volume;
}

// A thick LVM volume group hands out whole extents (4 MiB by default) and cannot over-commit.
const LVM_EXTENT = 4 * 1024 * 1024;

/** The volume group of an LVM storage (the simulator names it after the storage). */
export function lvmVolumeGroup(storage: StorageState): string {
  return storage.type === "lvmthin" ? "pve" : storage.id;
}

/**
 * LVMPlugin's alloc_lvm_image on a full volume group: its own check compares free bytes with the
 * size in KiB (so it only fires when almost nothing is left), then lvcreate refuses what does
 * not fit in the free extents. Other storages are thin or sparse here and over-commit.
 */
function assertThickLvmRoom(state: ClusterState, storage: StorageState, node: string, name: string, bytes: number): void {
  if (storage.type !== "lvm") return;
  const free = Math.max(0, storage.total - storageUsed(state, storage.id, node));
  const kib = Math.ceil(bytes / 1024);
  if (free < kib) throw new PveApiError(500, `not enough free space (${free} < ${kib})`);
  const needed = Math.ceil(bytes / LVM_EXTENT);
  const available = Math.floor(free / LVM_EXTENT);
  if (needed > available) {
    const vg = lvmVolumeGroup(storage);
    throw new PveApiError(
      500,
      `lvcreate '${vg}/${name}' error:   Volume group "${vg}" has insufficient free space (${available} extents): ${needed} required.`,
    );
  }
}

/** lvextend on a full thick LVM volume group: PVE's error when growing by `bytes` does not fit. */
export function assertThickLvmGrowth(state: ClusterState, volume: VolumeState, node: string, bytes: number): void {
  const storage = findStorage(state, volume.storage);
  if (storage?.type !== "lvm") return;
  const free = Math.max(0, storage.total - storageUsed(state, storage.id, node));
  const needed = Math.ceil((volume.size + bytes) / LVM_EXTENT) - Math.ceil(volume.size / LVM_EXTENT);
  const available = Math.floor(free / LVM_EXTENT);
  if (needed > available) {
    throw new Error(
      `error resizing volume '/dev/${lvmVolumeGroup(storage)}/${volumeBaseName(volume.volid)}': ` +
        `  Insufficient free space: ${needed} extents needed, but only ${available} available`,
    );
  }
}

export function removeVolume(state: ClusterState, volid: string, node: string): boolean {
  const volume = findVolume(state, volid, node);
  if (!volume) return false;
  dropVolume(state, volume);
  return true;
}

/** Bytes used on a storage as seen from a node: the volumes plus what their snapshots hold. */
export function storageUsed(state: ClusterState, storageId: string, node: string): number {
  return volumesOn(state, storageId, node).reduce((sum, v) => sum + v.size + (v.snapshotUsed ?? 0), 0);
}

/**
 * Renames vm-<vmid>-disk-N to base-<vmid>-disk-N (template conversion); returns the new volid.
 * A subvol keeps its name except on ZFS, whose create_base makes it basevol-…; the directory
 * plugin only renames `vm-` names.
 */
export function renameToBase(state: ClusterState, volid: string, node: string): string {
  const volume = findVolume(state, volid, node);
  let renamed = volid.replace(/(^|[:/])vm-(\d+-disk-\d+)(\.\w+)?$/, "$1base-$2$3");
  if (findStorage(state, volid.split(":")[0] ?? "")?.type === "zfspool") {
    renamed = renamed.replace(/(^|[:/])subvol-(\d+-disk-\d+)$/, "$1basevol-$2");
  }
  if (volume) {
    // the owner (and so the owner key) stays; only the volid entry moves
    const index = volumeIndex(state);
    dropFromIndex(index, volume);
    volume.volid = renamed;
    addToIndex(index, volume);
  }
  return renamed;
}
