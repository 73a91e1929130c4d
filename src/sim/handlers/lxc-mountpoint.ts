// What the container disk endpoints (resize, move_volume) share: reading a mount point the way
// pve-container's parse_volume does, and its config digest check.
import { driveVolume } from "../cluster/drives.js";
import type { SimCluster } from "../cluster/model.js";
import type { ConfigValue, GuestState } from "../cluster/types.js";
import { PveApiError } from "../contract.js";

export interface MountPoint {
  key: string;
  /** The drive string as configured. */
  text: string;
  /** The storage volume, undefined for a bind or device mount (a host path). */
  volid: string | undefined;
}

/**
 * The mount point at `key`. An unset key is parsed as the empty string by PVE, which fails its
 * property-string check: a 500 `format error` naming the missing required keys.
 */
export function mountPoint(guest: GuestState, key: string): MountPoint {
  const value: ConfigValue | undefined = guest.config[key];
  if (value === undefined) {
    const missing = "property is missing and it is not optional";
    const errors: Record<string, string> = /^mp\d+$/.test(key) ? { mp: missing, volume: missing } : { volume: missing };
    throw new PveApiError(500, "format error", errors);
  }
  const text = String(value);
  return { key, text, volid: driveVolume(text) };
}

/** PVE::Tools::assert_if_modified, which containers use for `digest`. */
export function assertUnmodified(model: SimCluster, guest: GuestState, digest: string | undefined, prefix = ""): void {
  if (digest !== undefined && digest !== model.digest(guest)) {
    throw new PveApiError(500, `${prefix}detected modified configuration - file changed by other user? Try again.`);
  }
}
