// Whether a volume is still named elsewhere in a guest's config (qemu-server's
// is_volume_in_use with a drive key given): by another drive of the current config or by any
// snapshot section. Moves are refused (with delete, or to another VM) or warned about on this.
import { driveVolume, isDiskKey } from "../cluster/drives.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";

function names(guest: GuestState, config: GuestConfig, volid: string, skipKey?: string): boolean {
  return Object.entries(config).some(([k, v]) => k !== skipKey && isDiskKey(guest.type, k) && driveVolume(String(v)) === volid);
}

export function volumeInUse(guest: GuestState, key: string, volid: string): boolean {
  return names(guest, guest.config, volid, key) || guest.snapshots.some((s) => names(guest, s.config, volid));
}
