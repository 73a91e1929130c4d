// A VM's devices as every report shows them: NIC MACs and volumes by slot, EFI vars and TPM
// state included.
import { volumeOf } from "../../pve/index.js";
import type { GuestDevices } from "../kind.js";
import type { LiveVm } from "./model.js";

export function qemuDevices(live: LiveVm): GuestDevices {
  const macs: Record<string, string> = {};
  const volumes: Record<string, string> = {};
  for (const nic of Object.values(live.nics).sort((a, b) => a.slot.localeCompare(b.slot, "en", { numeric: true }))) {
    if (nic.macaddr) macs[nic.slot] = nic.macaddr;
  }
  for (const disk of Object.values(live.disks).sort((a, b) => a.slot.localeCompare(b.slot, "en", { numeric: true }))) {
    volumes[disk.slot] = disk.volume;
  }
  for (const key of ["efidisk0", "tpmstate0"]) {
    const value = live.options[key];
    const volume = value !== undefined ? volumeOf(value) : undefined;
    if (volume) volumes[key] = volume;
  }
  return { macs, volumes };
}
