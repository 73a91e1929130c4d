// What a VM's migration needs to know of it (resources/migrate-step.ts): its volumes and where
// they are, its bridges, its memory, and what ties it to its node. qemu-server's
// check_local_resources refuses host PCI and USB devices (passed through or mapped), serial and
// parallel ports on host devices; its volume scan refuses the host's CD-ROM drive.
import type { MigrationFacts, MigratingVolume } from "../migrate-step.js";
import type { LiveVm } from "./model.js";

const MIB = 1024 * 1024;

/** A config key that ties the VM to the host it runs on, with why; undefined: none. */
function hostTie(key: string, value: string): string | undefined {
  if (/^hostpci\d+$/.test(key)) return `${key} passes a host PCI device through (${value})`;
  if (/^usb\d+$/.test(key) && !/(^|,)host=spice(,|$)/.test(value)) return `${key} passes a host USB device through (${value})`;
  if (/^(serial|parallel)\d+$/.test(key) && value.startsWith("/dev/")) return `${key} uses the host device ${value}`;
  return undefined;
}

function memoryMiB(value: string | undefined): number {
  const n = Number(/(\d+)/.exec(value ?? "")?.[1]);
  return Number.isFinite(n) && n > 0 ? n : 512;
}

export function vmMigrationFacts(live: LiveVm): MigrationFacts {
  const volumes: MigratingVolume[] = [];
  const blockers: string[] = [];
  for (const disk of Object.values(live.disks)) {
    if (disk.kind === "cdrom" && disk.volume === "cdrom") blockers.push(`${disk.slot} is the host's CD-ROM drive`);
    if (disk.storage === undefined) continue;
    volumes.push({
      slot: disk.slot,
      volume: disk.volume,
      storage: disk.storage,
      ...(disk.sizeBytes !== undefined ? { sizeBytes: disk.sizeBytes } : {}),
      ...(disk.kind === "cdrom" ? { cdrom: true } : {}),
    });
  }
  for (const [slot, volume] of Object.entries(live.unused)) {
    const storage = volume.split(":")[0];
    if (storage && volume.includes(":")) volumes.push({ slot, volume, storage });
  }
  for (const [key, value] of Object.entries(live.options)) {
    const tie = hostTie(key, value);
    if (tie !== undefined) blockers.push(tie);
  }
  const bridges = Object.values(live.nics).flatMap((n) => (n.bridge !== undefined ? [n.bridge] : []));
  return { volumes, bridges, memoryBytes: memoryMiB(live.options.memory) * MIB, live: true, blockers: blockers.sort() };
}
