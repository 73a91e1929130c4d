// A container's keys that reach the hypervisor host (see ../host-access.ts): a mount point whose
// source is a host path (a bind mount: `/` or `/etc/pve` as well as a data directory), a
// passed-through device (`devN`), the hookscript the host runs around each start.
import type { ReachesHost } from "../host-access.js";
import type { LiveCt } from "./model.js";
import { isHostPath, parseMountString } from "./read.js";

export const ctReachesHost: ReachesHost = (key, value) => {
  if (value === undefined) return false;
  if (key === "hookscript" || /^dev\d+$/.test(key)) return true;
  return /^mp\d+$/.test(key) && isHostPath(parseMountString(key, value).volume);
};

/** The container's current values by key, as the host-access check reads them. */
export function ctHostValues(live: LiveCt): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = { ...live.options };
  for (const mount of Object.values(live.mounts)) values[mount.slot] = mount.volume;
  return values;
}
