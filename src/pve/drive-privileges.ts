// What qemu-server 9 checks on /vms/<vmid> for a VM's drive (a disk, a CD-ROM, a cloud-init
// drive), besides the storages the drive uses. One table for pvectl's preflight, `access needs`
// and the simulator, so the three cannot disagree. From PVE/API2/Qemu.pm:
// - create_vm: `$check_vm_modify_config_perm` skips every drive key and nothing else checks a
//   VM.Config.* privilege per drive: VM.Allocate on the new guest (or its pool) covers them.
// - update_vm (PUT and POST config), `$check_drive_perms`: a drive written is checked by its new
//   value and, when the slot holds one, by its old value; a drive deleted by its value. The
//   check is `check_vm_perm` without `any`: a cloud-init drive needs VM.Config.Cloudinit AND
//   VM.Config.CDROM. An `unusedN` deleted needs VM.Config.Disk.
import { isCdrom, isCloudinitDrive } from "./config.js";

/** What a drive is, as qemu-server tells them apart (drive_is_cloudinit, then drive_is_cdrom). */
export type DriveMedia = "disk" | "cdrom" | "cloudinit";

/** Which of qemu-server's handlers checks the drive: the create of the guest, or a config update. */
export type DriveCheck = "create" | "update";

export const DRIVE_PRIVILEGES: Readonly<Record<DriveCheck, Readonly<Record<DriveMedia, readonly string[]>>>> = {
  create: { disk: [], cdrom: [], cloudinit: [] },
  update: { disk: ["VM.Config.Disk"], cdrom: ["VM.Config.CDROM"], cloudinit: ["VM.Config.Cloudinit", "VM.Config.CDROM"] },
};

/** The media of a drive value (`local-lvm:cloudinit`, `local:iso/x.iso,media=cdrom`, `local-lvm:vm-100-disk-0`). */
export function driveMedia(value: string): DriveMedia {
  if (isCloudinitDrive(value)) return "cloudinit";
  return isCdrom(value) ? "cdrom" : "disk";
}

/** Every privilege (all of them are required) a drive of this media needs on /vms/<vmid> in this handler. */
export function drivePrivileges(check: DriveCheck, media: DriveMedia): readonly string[] {
  return DRIVE_PRIVILEGES[check][media];
}
