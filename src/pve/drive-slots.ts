// VM drive slot names with PVE's exact ranges (qemu-server's drive schema): ide0-3, sata0-5,
// scsi0-30, virtio0-15, plus efidisk0 and tpmstate0. The one place these ranges are written;
// config keys, boot-disk formats and every layer above ask here.

/** The buses a VM drive slot can be on. */
export type DriveBus = "ide" | "sata" | "scsi" | "virtio";

const DRIVE_SLOT_RE = /^(ide)[0-3]$|^(sata)[0-5]$|^(scsi)(?:[0-9]|[12][0-9]|30)$|^(virtio)(?:[0-9]|1[0-5])$/;

/** The bus of a VM drive slot ("scsi3" -> "scsi"), or undefined when PVE has no such slot (scsi31). */
export function driveBusOf(key: string): DriveBus | undefined {
  const match = DRIVE_SLOT_RE.exec(key);
  return match ? ((match[1] ?? match[2] ?? match[3] ?? match[4]) as DriveBus) : undefined;
}

/** True for a VM drive slot on a bus (disks and CD-ROMs; not efidisk0, tpmstate0 or unusedN). */
export function isDriveSlot(key: string): boolean {
  return driveBusOf(key) !== undefined;
}

/** True for the VM keys whose value is a drive: bus slots, efidisk0 and tpmstate0. */
export function isVmDriveKey(key: string): boolean {
  return isDriveSlot(key) || key === "efidisk0" || key === "tpmstate0";
}
