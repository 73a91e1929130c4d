// One guest's part of a vzdump task: the archive volume (name, content, notes, protection)
// and the lines PVE's VZDump writes for it. The guest is backed up as it is when the task's
// work runs; its start time is when the request came in, plus the guests before it.
import { formatSize } from "../../pve/index.js";
import { driveSize, driveVolume, isCdrom, isDiskKey, parseDrive } from "../cluster/drives.js";
import { guestName } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { BackupContent, GuestConfig, GuestState, StorageState } from "../cluster/types.js";
import { addVolume, findVolume } from "../cluster/volumes.js";
import { snapshotsPossible } from "./feature.js";

const EXTENSIONS: Record<string, string> = { "0": "", "1": ".lzo", gzip: ".gz", lzo: ".lzo", zstd: ".zst" };

/** Throughput the `backup` timing profile assumes (bytes per second). */
const BACKUP_RATE = 150e6;

export interface ArchiveOptions {
  storage: StorageState;
  node: string;
  mode: string;
  compress: string;
  notesTemplate: string | undefined;
  protected: boolean;
}

function stamp(seconds: number): string {
  const d = new Date(seconds * 1000).toISOString();
  return `${d.slice(0, 10).replace(/-/g, "_")}-${d.slice(11, 19).replace(/:/g, "_")}`;
}

/** vzdump's log time: "YYYY-MM-DD HH:MM:SS" (the simulated nodes run on UTC). */
export function logTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/** HH:MM:SS as VZDump's format_time prints a duration. */
function duration(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
}

function notes(template: string | undefined, guest: GuestState, model: SimCluster): string | undefined {
  if (template === undefined) return undefined;
  return template
    .replace(/\{\{guestname\}\}/g, guestName(guest))
    .replace(/\{\{vmid\}\}/g, String(guest.vmid))
    .replace(/\{\{node\}\}/g, guest.node)
    .replace(/\{\{cluster\}\}/g, model.state.clusterName)
    .replace(/\\n/g, "\n");
}

/** The disks an archive holds: no CD-ROMs, none with backup=0. */
function includedDisks(model: SimCluster, guest: GuestState): Array<[string, string, number, string, string]> {
  const out: Array<[string, string, number, string, string]> = [];
  for (const [key, value] of Object.entries(guest.config)) {
    if (!isDiskKey(guest.type, key)) continue;
    const volid = driveVolume(String(value));
    if (!volid || isCdrom(String(value)) || parseDrive(guest.type, key, String(value)).backup === false) continue;
    const volume = findVolume(model.state, volid, guest.node);
    if (volume) out.push([key, volid, volume.size, volume.storage, volume.format]);
  }
  return out;
}

/** The config and disks an archive keeps (enough to restore the guest). */
function backupContent(model: SimCluster, guest: GuestState): BackupContent {
  const config: GuestConfig = { ...guest.config };
  delete config.lock;
  delete config.parent;
  const disks: BackupContent["disks"] = {};
  for (const [key, , size, storage, format] of includedDisks(model, guest)) disks[key] = { size, storage, format };
  return { type: guest.type, config, disks };
}

/** The archive's size: 30 % of the guest's disks (compressed, mostly empty). */
export function backupSize(guest: GuestState): number {
  let total = 0;
  for (const [k, v] of Object.entries(guest.config)) {
    if (isDiskKey(guest.type, k) && !isCdrom(String(v))) total += driveSize(guest.type, k, String(v));
  }
  return Math.max(1024 * 1024, Math.round(total * 0.3));
}

/** Seconds one guest's backup takes in the log (the timing profile's rate, at least one). */
export function backupSeconds(guest: GuestState): number {
  return Math.max(1, Math.round(backupSize(guest) / BACKUP_RATE));
}

/** The mode VZDump ends up using: stop for a stopped guest; snapshot falls back to suspend for a CT without snapshots. */
function effectiveMode(model: SimCluster, guest: GuestState, mode: string, log: (l: string) => void): string {
  if (guest.status !== "running") return "stop";
  if (guest.type === "lxc" && mode === "snapshot" && !snapshotsPossible(model, guest, guest.config)) {
    log("INFO: mode failure - some volumes do not support snapshots");
    log("INFO: trying 'suspend' mode instead");
    return "suspend";
  }
  return mode;
}

/** Backs one guest up at `start` (simulated seconds); returns when it finished. */
export function backupGuest(model: SimCluster, guest: GuestState, opts: ArchiveOptions, start: number, log: (l: string) => void): number {
  const { storage } = opts;
  log(`INFO: Starting Backup of VM ${guest.vmid} (${guest.type})`);
  log(`INFO: Backup started at ${logTime(start)}`);
  log(`INFO: status = ${guest.status}`);
  const mode = effectiveMode(model, guest, opts.mode, log);
  if (guest.type === "qemu") {
    log(`INFO: VM Name: ${guestName(guest)}`);
    for (const [key, volid, size] of includedDisks(model, guest)) log(`INFO: include disk '${key}' '${volid}' ${formatSize(size)}`);
    log(`INFO: backup mode: ${mode}`);
  } else {
    log(`INFO: backup mode: ${mode}`);
    log(`INFO: CT Name: ${guestName(guest)}`);
    for (const [key] of includedDisks(model, guest)) {
      const mp = key === "rootfs" ? "/" : String(parseDrive("lxc", key, String(guest.config[key])).mp ?? "");
      log(`INFO: including mount point ${key} ('${mp}') in backup`);
    }
  }
  const ext = guest.type === "qemu" ? "vma" : "tar";
  const format = `${ext}${EXTENSIONS[opts.compress] ?? ""}`;
  const file = `vzdump-${guest.type}-${guest.vmid}-${stamp(start)}.${format}`;
  const volid = `${storage.id}:backup/${file}`;
  const note = notes(opts.notesTemplate, guest, model);
  addVolume(model.state, {
    volid,
    storage: storage.id,
    ...(storage.shared ? {} : { node: opts.node }),
    content: "backup",
    format,
    size: backupSize(guest),
    ctime: start,
    vmid: guest.vmid,
    subtype: guest.type,
    ...(note !== undefined ? { notes: note } : {}),
    ...(opts.protected ? { protected: true } : {}),
    backup: backupContent(model, guest),
  });
  // PVE names the archive by its path on a file storage (the volid on other storages)
  log(`INFO: creating vzdump archive '${storage.path ? `${storage.path}/dump/${file}` : volid}'`);
  return start + backupSeconds(guest);
}

/** The closing lines of one guest's backup. */
export function finishGuest(guest: GuestState, start: number, end: number, log: (l: string) => void): void {
  log(`INFO: Finished Backup of VM ${guest.vmid} (${duration(end - start)})`);
  log(`INFO: Backup finished at ${logTime(end)}`);
}
