// Where a container's volumes go when `restore` is given no --storage. PVE does not keep them
// where they were backed up from: pve-container's create_vm defaults `storage` to `local` and,
// restoring without mount point parameters, puts every volume mount point of the archive on
// that one storage (`local` holds no container volumes on most clusters, and the restore
// fails). pvectl passes the storage the archive's root disk was on instead, and says so when
// other mount points were elsewhere (they go with the root disk: PVE restores onto one storage).
import { errorText } from "../engine/retry-policy.js";
import type { PreflightProblem } from "../plan/types.js";
import { storageOfVolume, volumeOf } from "../pve/config.js";
import type { ArchiveConfigReader } from "./restore-copy.js";

export interface ContainerRestoreStorage {
  storage?: string;
  warnings: string[];
  problems: PreflightProblem[];
}

/** The storage for every volume of the container in `archive`: its root disk's. */
export async function containerRestoreStorage(readArchiveConfig: ArchiveConfigReader, archive: string): Promise<ContainerRestoreStorage> {
  let config: Record<string, string>;
  try {
    config = await readArchiveConfig();
  } catch (err) {
    return { warnings: [], problems: [unreadable(archive, errorText(err).split("\n")[0] ?? "")] };
  }
  const rootStorage = config.rootfs === undefined ? undefined : storageOf(config.rootfs);
  if (rootStorage === undefined) return { warnings: [], problems: [unreadable(archive, "it names no root disk on a storage")] };
  const elsewhere = Object.entries(config)
    .filter(([key, value]) => /^mp\d+$/.test(key) && storageOf(value) !== undefined && storageOf(value) !== rootStorage)
    .map(([key, value]) => `${key} (was on ${storageOf(value)})`);
  const warnings =
    elsewhere.length === 0
      ? []
      : [
          `PVE restores every volume of a container onto one storage: ${elsewhere.join(", ")} goes to ${rootStorage} with the root disk; name another with --storage`,
        ];
  return { storage: rootStorage, warnings, problems: [] };
}

/** The storage of a mount point's volume; undefined for a bind mount or device (a host path). */
function storageOf(mountPoint: string): string | undefined {
  const volume = volumeOf(mountPoint);
  return volume === undefined ? undefined : storageOfVolume(volume);
}

function unreadable(archive: string, why: string): PreflightProblem {
  return {
    kind: "storage",
    message: `cannot tell from ${archive} where the container's volumes were (${why}); name the storage with --storage (without it PVE would put them all on local)`,
  };
}
