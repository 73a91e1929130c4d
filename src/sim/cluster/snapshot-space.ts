// What guest snapshots cost on storage, kept simple on purpose: a real thin pool, ZFS dataset,
// RBD image or qcow2 file grows as the guest writes after the snapshot, which the simulator
// does not model. Instead each snapshot holds a fixed share (PINNED_SHARE) of every volume it
// covers, counted in the storage's `used` (GET …/storage/{s}/status and /cluster/resources)
// until the snapshot is deleted or its volume freed. A RAM state (vmstate) is a real volume.
import { driveVolume, isCdrom, isDiskKey } from "./drives.js";
import type { ClusterState, GuestConfig, GuestState, SnapshotState } from "./types.js";
import { findStorage, findVolume, isFileStorage } from "./volumes.js";

/** Share of a volume's size one snapshot holds on its storage. */
export const PINNED_SHARE = 0.1;

/** The owned disk volumes (no CD-ROM) of a config. */
export function snapshotDiskVolids(guest: GuestState, config: GuestConfig): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (!isDiskKey(guest.type, key)) continue;
    const volid = driveVolume(String(value));
    if (volid && !isCdrom(String(value))) out.push(volid);
  }
  return out;
}

/** Charges a new snapshot's share of each of its volumes to their storages. */
export function pinSnapshot(state: ClusterState, guest: GuestState, snap: SnapshotState): void {
  const pinned: Record<string, number> = {};
  for (const volid of snapshotDiskVolids(guest, snap.config)) {
    const volume = findVolume(state, volid, guest.node);
    if (!volume) continue;
    const bytes = Math.round(volume.size * PINNED_SHARE);
    volume.snapshotUsed = (volume.snapshotUsed ?? 0) + bytes;
    pinned[volid] = bytes;
  }
  snap.pinned = pinned;
}

/** Gives back what a deleted snapshot held. */
export function unpinSnapshot(state: ClusterState, guest: GuestState, snap: SnapshotState): void {
  for (const [volid, bytes] of Object.entries(snap.pinned ?? {})) {
    const volume = findVolume(state, volid, guest.node);
    if (volume) volume.snapshotUsed = Math.max(0, (volume.snapshotUsed ?? 0) - bytes);
  }
  delete snap.pinned;
}

/**
 * Where qemu-server saves a snapshot's RAM: `vmstatestorage` when set, else a shared storage one
 * of the VM's disks is on, else a local one (among several, a file-based one is preferred), else
 * `local`.
 */
export function vmstateStorage(state: ClusterState, guest: GuestState): string {
  const configured = guest.config.vmstatestorage;
  if (configured !== undefined) return String(configured);
  let shared: string | undefined;
  let local: string | undefined;
  for (const volid of snapshotDiskVolids(guest, guest.config)) {
    const id = volid.split(":")[0] ?? "";
    const storage = findStorage(state, id);
    if (!storage) continue;
    const pick = (current: string | undefined) => (current === undefined || isFileStorage(storage) ? id : current);
    if (storage.shared) shared = pick(shared);
    else local = pick(local);
  }
  return shared ?? local ?? "local";
}

/** Size qemu-server allocates for a RAM state: twice the memory plus 500 MiB for device state. */
export function vmstateBytes(config: GuestConfig): number {
  const raw = String(config.memory ?? "512");
  const mib = Number(/(?:current=)?(\d+)/.exec(raw)?.[1] ?? 512);
  return (mib * 2 + 500) * 1024 * 1024;
}
