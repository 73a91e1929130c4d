// A VM's devices as every report shows them: NIC MACs and volumes by slot, EFI vars and TPM
// state included.
import { volumeOf } from "../../pve/index.js";
import type { GuestDevices, GuestVolume } from "../kind.js";
import { volumeFormatOf } from "../volume-format.js";
import type { DesiredVm, LiveVm } from "./model.js";

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

/** The disks a snapshot covers: CD-ROMs and the cloud-init drive are not part of one; sorted by slot. */
export function qemuLiveVolumes(live: LiveVm): GuestVolume[] {
  const out: GuestVolume[] = [];
  for (const disk of Object.values(live.disks)) {
    if (disk.kind !== "disk" || disk.storage === undefined) continue;
    const format = volumeFormatOf(disk.volume, disk.options.format);
    out.push({ slot: disk.slot, volume: disk.volume, storage: disk.storage, ...(format !== undefined ? { format } : {}) });
  }
  return out.sort((a, b) => a.slot.localeCompare(b.slot));
}

/** The storages of a desired VM's disks (CD-ROMs hold no volume of the VM's own). */
export function qemuDesiredVolumes(vm: DesiredVm): Array<{ slot: string; storage: string }> {
  return vm.disks.flatMap((d) => (d.kind !== "cdrom" && d.storage !== undefined ? [{ slot: d.slot, storage: d.storage }] : []));
}

/** The sizes of a VM's disk drives by slot (CD-ROMs and the cloud-init drive are not disks). */
export function qemuDiskSizes(live: LiveVm): Map<string, number | undefined> {
  return new Map(
    Object.values(live.disks)
      .filter((d) => d.kind === "disk")
      .map((d) => [d.slot, d.sizeBytes]),
  );
}
