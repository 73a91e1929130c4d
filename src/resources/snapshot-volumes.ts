// The volumes a snapshot of a guest covers, with the facts the capability table needs. A VM's
// CD-ROMs and cloud-init drive are not part of its snapshot (PVE skips cdrom-media drives when
// it checks the snapshot feature); a container's bind and device mounts are host paths, not
// volumes, and are skipped too.
import type { LiveGuest } from "./index.js";

export interface SnapshotVolume {
  /** The config key (`scsi0`, `rootfs`, `mp1`). */
  slot: string;
  volume: string;
  storage: string;
  /** raw, qcow2, vmdk or subvol when the volume says so; undefined on block storages that do not. */
  format?: string;
}

/** The format a volume id or drive option names: `format=` wins, else the file's extension, else a `subvol-` name. */
function formatOf(volume: string, option: string | undefined): string | undefined {
  if (option !== undefined) return option;
  const file = volume.slice(volume.lastIndexOf("/") + 1);
  const ext = /\.(raw|qcow2|vmdk)$/.exec(file)?.[1];
  if (ext !== undefined) return ext;
  return /(^|:)subvol-/.test(file) ? "subvol" : undefined;
}

export function snapshotVolumes(live: LiveGuest): SnapshotVolume[] {
  const out: SnapshotVolume[] = [];
  if (live.kind === "lxc") {
    for (const mount of Object.values(live.mounts)) {
      if (mount.storage === undefined) continue;
      const format = formatOf(mount.volume, undefined);
      out.push({ slot: mount.slot, volume: mount.volume, storage: mount.storage, ...(format !== undefined ? { format } : {}) });
    }
  } else {
    for (const disk of Object.values(live.disks)) {
      if (disk.kind !== "disk" || disk.storage === undefined) continue;
      const format = formatOf(disk.volume, disk.options.format);
      out.push({ slot: disk.slot, volume: disk.volume, storage: disk.storage, ...(format !== undefined ? { format } : {}) });
    }
  }
  return out.sort((a, b) => a.slot.localeCompare(b.slot));
}
