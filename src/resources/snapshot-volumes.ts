// The volumes a snapshot of a guest covers, with the facts the capability table needs. A VM's
// CD-ROMs and cloud-init drive are not part of its snapshot (PVE skips cdrom-media drives when
// it checks the snapshot feature); a container's bind and device mounts are host paths, not
// volumes, and are skipped too. Each kind lists its volumes (GuestKind.liveVolumes).
import type { GuestVolume } from "./kind.js";
import { kindOf, type LiveGuest } from "./index.js";

/** A volume as the snapshot checks read it. */
export type SnapshotVolume = GuestVolume;

export function snapshotVolumes(live: LiveGuest): SnapshotVolume[] {
  return kindOf(live).liveVolumes(live);
}
