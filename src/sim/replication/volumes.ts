// Which of a guest's volumes a replication job copies (qemu-server's and pve-container's
// get_replicatable_volumes): volumes on a non-shared storage that the guest owns, unless the
// drive says `replicate=0`; CD-ROMs are skipped. A volume that must be copied but whose storage
// cannot replicate (only ZFS pools can) refuses the job, as PVE does.
import type { ClusterState, GuestState } from "../cluster/types.js";
import { driveVolume, isCdrom, isVolumeKey, ownsVolume } from "../cluster/drives.js";
import { volumeOf } from "../../pve/index.js";

/** Storage types whose volumes have PVE's `replicate` feature. */
const REPLICATING_TYPES = new Set(["zfspool"]);

function replicateOff(drive: string): boolean {
  return /(?:^|,)replicate=(?:0|no|off|false)(?:,|$)/.test(drive);
}

/** The volumes a job would copy; throws PVE's message when one cannot be replicated. */
export function replicatableVolumes(state: ClusterState, guest: GuestState): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(guest.config)) {
    if (!isVolumeKey(guest.type, key)) continue;
    const drive = String(value);
    if (isCdrom(drive) || replicateOff(drive)) continue;
    const volid = driveVolume(drive);
    if (volid === undefined) {
      const path = volumeOf(drive);
      if (path?.startsWith("/") && guest.type === "qemu") throw new Error(`unable to replicate local file/device '${path}'`);
      continue;
    }
    const storage = state.storages.find((s) => volid.startsWith(`${s.id}:`));
    if (!storage || storage.shared || !ownsVolume(guest.vmid, volid)) continue;
    if (!REPLICATING_TYPES.has(storage.type)) throw new Error(`missing replicate feature on volume '${volid}'`);
    out.push(volid);
  }
  return out;
}

/** Whether a storage can hold replicated volumes (what a disk added to a replicated guest needs). */
export function storageReplicates(state: ClusterState, storageId: string): boolean {
  const storage = state.storages.find((s) => s.id === storageId);
  return storage !== undefined && (storage.shared || REPLICATING_TYPES.has(storage.type));
}
