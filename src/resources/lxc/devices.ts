// A container's devices as every report shows them: NIC MACs (hwaddr) and the volumes of
// rootfs and each mount point (a bind mount shows its host path), by slot.
import type { GuestDevices, GuestVolume } from "../kind.js";
import { volumeFormatOf } from "../volume-format.js";
import type { DesiredCt, LiveCt } from "./model.js";

const bySlot = (a: { slot: string }, b: { slot: string }) => a.slot.localeCompare(b.slot, "en", { numeric: true });

export function lxcDevices(live: LiveCt): GuestDevices {
  const macs: Record<string, string> = {};
  const volumes: Record<string, string> = {};
  for (const nic of Object.values(live.nics).sort(bySlot)) if (nic.hwaddr) macs[nic.slot] = nic.hwaddr;
  for (const mount of Object.values(live.mounts).sort(bySlot)) volumes[mount.slot] = mount.volume;
  return { macs, volumes };
}

/** The volumes a snapshot covers: bind and device mounts are host paths, not volumes; sorted by slot. */
export function lxcLiveVolumes(live: LiveCt): GuestVolume[] {
  const out: GuestVolume[] = [];
  for (const mount of Object.values(live.mounts)) {
    if (mount.storage === undefined) continue;
    const format = volumeFormatOf(mount.volume, undefined);
    out.push({ slot: mount.slot, volume: mount.volume, storage: mount.storage, ...(format !== undefined ? { format } : {}) });
  }
  return out.sort((a, b) => a.slot.localeCompare(b.slot));
}

/** The storages of a desired container's volumes (bind mounts have none). */
export function lxcDesiredVolumes(ct: DesiredCt): Array<{ slot: string; storage: string }> {
  return ct.mounts.flatMap((m) => (m.storage !== undefined ? [{ slot: m.slot, storage: m.storage }] : []));
}
