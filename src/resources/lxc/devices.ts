// A container's devices as every report shows them: NIC MACs (hwaddr) and the volumes of
// rootfs and each mount point (a bind mount shows its host path), by slot.
import type { GuestDevices } from "../kind.js";
import type { LiveCt } from "./model.js";

const bySlot = (a: { slot: string }, b: { slot: string }) => a.slot.localeCompare(b.slot, "en", { numeric: true });

export function lxcDevices(live: LiveCt): GuestDevices {
  const macs: Record<string, string> = {};
  const volumes: Record<string, string> = {};
  for (const nic of Object.values(live.nics).sort(bySlot)) if (nic.hwaddr) macs[nic.slot] = nic.hwaddr;
  for (const mount of Object.values(live.mounts).sort(bySlot)) volumes[mount.slot] = mount.volume;
  return { macs, volumes };
}
