// Which config keys hold a volume (disks, CD-ROMs, mount points, unused volumes) or a NIC, with
// PVE's exact ranges. Kept apart from config.ts (which loads the guest schema) so that the
// inventory, whose start-up Ansible waits for, can ask without loading it.
import { isVmDriveKey } from "./drive-slots.js";
import type { GuestKind } from "./guest-schema.js";

const QEMU_UNUSED_RE = /^unused(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$/;
const LXC_DISK_RE = /^(?:rootfs|(?:mp|unused)(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5]))$/;
const QEMU_NET_RE = /^net(?:[0-9]|[12][0-9]|3[01])$/;

/** True for keys whose value references a volume: qemu ide/sata/scsi/virtio/efidisk0/tpmstate0/unusedN, lxc rootfs/mpN/unusedN. */
export function isDiskKey(key: string, kind?: GuestKind): boolean {
  const qemu = isVmDriveKey(key) || QEMU_UNUSED_RE.test(key);
  if (kind === "qemu") return qemu;
  if (kind === "lxc") return LXC_DISK_RE.test(key);
  return qemu || LXC_DISK_RE.test(key);
}

/** True for unusedN keys (volumes detached from the guest but still owned by it). */
export function isUnusedKey(key: string): boolean {
  return /^unused\d+$/.test(key);
}

/** True for network device keys (netN). */
export function isNetKey(key: string): boolean {
  return QEMU_NET_RE.test(key);
}
