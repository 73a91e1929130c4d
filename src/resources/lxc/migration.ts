// What a container's migration needs to know of it (resources/migrate-step.ts): its volumes and
// where they are, its bridges and memory. pve-container moves a running container only by a
// restart, and refuses a bind or device mount point unless it is marked `shared`.
import type { MigrationFacts, MigratingVolume } from "../migrate-step.js";
import type { LiveCt } from "./model.js";

const MIB = 1024 * 1024;

export function ctMigrationFacts(live: LiveCt): MigrationFacts {
  const volumes: MigratingVolume[] = [];
  const blockers: string[] = [];
  for (const mount of Object.values(live.mounts)) {
    if (mount.storage !== undefined) {
      volumes.push({
        slot: mount.slot,
        volume: mount.volume,
        storage: mount.storage,
        ...(mount.sizeBytes !== undefined ? { sizeBytes: mount.sizeBytes } : {}),
      });
    } else if (mount.options.shared !== "1") {
      blockers.push(`${mount.slot} mounts the host's ${mount.volume} (a bind or device mount not marked shared=1)`);
    }
  }
  for (const [slot, volume] of Object.entries(live.unused)) {
    const storage = volume.split(":")[0];
    if (storage && volume.includes(":")) volumes.push({ slot, volume, storage });
  }
  const bridges = Object.values(live.nics).flatMap((n) => (n.bridge !== undefined ? [n.bridge] : []));
  const memory = Number(live.options.memory ?? "512");
  return {
    volumes,
    bridges,
    memoryBytes: (Number.isFinite(memory) && memory > 0 ? memory : 512) * MIB,
    live: false,
    blockers: blockers.sort(),
  };
}
