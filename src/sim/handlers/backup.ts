// Backups: POST /nodes/{node}/vzdump (vzdump task, `lock: backup` while it runs, archive
// volumes in storage content). The /cluster/backup job list (jobs.cfg) is backup-jobs.ts.
import { splitList } from "../../pve/index.js";
import { driveSize, driveVolume, isCdrom, isDiskKey, parseDrive } from "../cluster/drives.js";
import { guestName } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { BackupContent, GuestConfig, GuestState } from "../cluster/types.js";
import { addVolume, findVolume, requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { registerBackupJobHandlers } from "./backup-jobs.js";
import { flag, nodeParam, sim, str } from "./context.js";
import { pruneAfterBackup } from "./prune-backups.js";

const EXTENSIONS: Record<string, string> = { "0": "", "1": ".lzo", gzip: ".gz", lzo: ".lzo", zstd: ".zst" };

function splitVmids(text: string | undefined): number[] {
  return splitList(text ?? "").map(Number);
}

function stamp(seconds: number): string {
  const d = new Date(seconds * 1000).toISOString();
  return `${d.slice(0, 10).replace(/-/g, "_")}-${d.slice(11, 19).replace(/:/g, "_")}`;
}

/** vzdump's log time: "YYYY-MM-DD HH:MM:SS" (the simulated nodes run on UTC). */
function logTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

function selectGuests(ctx: HandlerContext, model: SimCluster, node: string): GuestState[] {
  const onNode = model.state.guests.filter((g) => g.node === node).sort((a, b) => a.vmid - b.vmid);
  const pool = str(ctx, "pool");
  if (pool !== undefined) {
    const members = model.pool(pool)?.vmids ?? [];
    return onNode.filter((g) => members.includes(g.vmid));
  }
  if (flag(ctx, "all")) {
    const exclude = splitVmids(str(ctx, "exclude"));
    return onNode.filter((g) => !exclude.includes(g.vmid));
  }
  const wanted = splitVmids(str(ctx, "vmid"));
  for (const vmid of wanted) {
    if (!model.guest(vmid)) throw new PveApiError(500, `unable to find VM ${vmid}`);
  }
  return onNode.filter((g) => wanted.includes(g.vmid));
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

/** The config and disks an archive keeps (enough to restore the guest). */
function backupContent(model: SimCluster, guest: GuestState): BackupContent {
  const config: GuestConfig = { ...guest.config };
  delete config.lock;
  delete config.parent;
  const disks: BackupContent["disks"] = {};
  for (const [key, value] of Object.entries(config)) {
    if (!isDiskKey(guest.type, key)) continue;
    const volid = driveVolume(String(value));
    if (!volid || isCdrom(String(value)) || parseDrive(guest.type, key, String(value)).backup === false) continue;
    const volume = findVolume(model.state, volid, guest.node);
    if (volume) disks[key] = { size: volume.size, storage: volume.storage, format: volume.format };
  }
  return { type: guest.type, config, disks };
}

function backupSize(guest: GuestState): number {
  let total = 0;
  for (const [k, v] of Object.entries(guest.config)) {
    if (isDiskKey(guest.type, k) && !isCdrom(String(v))) total += driveSize(guest.type, k, String(v));
  }
  return Math.max(1024 * 1024, Math.round(total * 0.3));
}

function vzdump(ctx: HandlerContext): string {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  for (const p of ["tmpdir", "dumpdir", "script", "job-id"]) {
    if (ctx.params[p] !== undefined && ctx.auth.userid !== "root@pam") {
      throw new PveApiError(400, "Parameter verification failed.", { [p]: "Only root may set this option." });
    }
  }
  if (flag(ctx, "stdout")) throw new PveApiError(501, "vzdump to stdout is not supported by the simulator");
  const storageId = str(ctx, "storage") ?? "local";
  const storage = requireStorage(model.state, storageId, node);
  if (!storage.content.includes("backup")) {
    throw new PveApiError(500, `can't use storage '${storageId}' for backups - wrong content type`);
  }
  ctx.checkPermission(`/storage/${storageId}`, ["Datastore.AllocateSpace"]);
  const guests = selectGuests(ctx, model, node);
  for (const g of guests) ctx.checkPermission(`/vms/${g.vmid}`, ["VM.Backup"]);
  const mode = str(ctx, "mode") ?? "snapshot";
  const compress = str(ctx, "compress") ?? "0";
  const notesTemplate = str(ctx, "notes-template");
  const isProtected = flag(ctx, "protected");
  // remove=0 keeps every old backup; else the job's prune-backups, or the storage's, apply
  const prune = ctx.params.remove !== 0;
  const pruneSpec = str(ctx, "prune-backups");
  // Guests already locked fail in the task; the others show `lock: backup` meanwhile.
  const lockedBefore = new Set(guests.filter((g) => g.config.lock !== undefined).map((g) => g.vmid));
  for (const g of guests) if (!lockedBefore.has(g.vmid)) g.config.lock = "backup";
  const bytes = guests.reduce((sum, g) => sum + backupSize(g), 0);
  return ctx.tasks.start({
    node,
    type: "vzdump",
    id: guests.length === 1 ? String(guests[0]?.vmid) : "",
    kind: "backup",
    bytes,
    onFailure: () => {
      for (const g of guests) if (!lockedBefore.has(g.vmid) && g.config.lock === "backup") delete g.config.lock;
    },
    work: (task) => {
      const failed: number[] = [];
      for (const guest of guests) {
        if (lockedBefore.has(guest.vmid)) {
          task.log(`ERROR: Backup of VM ${guest.vmid} failed - ${guest.type === "qemu" ? "VM" : "CT"} is locked (${guest.config.lock})`);
          failed.push(guest.vmid);
          continue;
        }
        if (!model.state.guests.includes(guest)) continue;
        task.log(`INFO: Starting Backup of VM ${guest.vmid} (${guest.type})`);
        task.log(`INFO: Backup started at ${logTime(model.now())}`);
        task.log(`INFO: backup mode: ${mode}`);
        const kind = guest.type === "qemu" ? "qemu" : "lxc";
        const ext = guest.type === "qemu" ? "vma" : "tar";
        const file = `vzdump-${kind}-${guest.vmid}-${stamp(model.now())}.${ext}${EXTENSIONS[compress] ?? ""}`;
        const volid = `${storage.id}:backup/${file}`;
        const note = notes(notesTemplate, guest, model);
        const content = backupContent(model, guest);
        addVolume(model.state, {
          volid,
          storage: storage.id,
          ...(storage.shared ? {} : { node }),
          content: "backup",
          format: `${ext}${EXTENSIONS[compress] ?? ""}`.replace(/^(vma|tar)\./, "$1."),
          size: backupSize(guest),
          ctime: model.now(),
          vmid: guest.vmid,
          subtype: guest.type,
          ...(note !== undefined ? { notes: note } : {}),
          ...(isProtected ? { protected: true } : {}),
          backup: content,
        });
        // PVE names the archive by its path on a file storage (the volid on other storages)
        task.log(`INFO: creating vzdump archive '${storage.path ? `${storage.path}/dump/${file}` : volid}'`);
        if (guest.config.lock === "backup") delete guest.config.lock;
        if (prune) pruneAfterBackup(model, storage, node, guest, pruneSpec, (l) => task.log(l));
        task.log(`INFO: Finished Backup of VM ${guest.vmid}`);
      }
      if (failed.length > 0) throw new Error("job errors");
      task.log("INFO: Backup job finished successfully");
    },
  });
}

export function registerBackupHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/vzdump", vzdump);
  registerBackupJobHandlers(router);
}
