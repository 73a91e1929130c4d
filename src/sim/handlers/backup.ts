// Backups: POST /nodes/{node}/vzdump as pve-manager's API2/VZDump.pm and VZDump.pm run it — a
// `vzdump` task over the node's guests (`lock: backup` on each while it runs), an archive per
// guest in storage content (vzdump-archive.ts) and the retention after each (prune-backups.ts).
// The /cluster/backup job list (jobs.cfg) is backup-jobs.ts.
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { checkNotesTemplate, registerBackupJobHandlers } from "./backup-jobs.js";
import { flag, nodeParam, sim, str } from "./context.js";
import { pruneAfterBackup } from "./prune-backups.js";
import { registerExtractConfigHandler } from "./vzdump-extractconfig.js";
import { type ArchiveOptions, backupGuest, backupSize, finishGuest } from "./vzdump-archive.js";

/** Options only root@pam may give (API2/VZDump.pm). */
const ROOT_ONLY = ["maxfiles", "prune-backups", "tmpdir", "dumpdir", "script", "bwlimit", "ionice", "job-id"];

interface Selection {
  /** This node's guests, by vmid. */
  local: GuestState[];
  /** Asked-for vmids no guest has: they fail in the task. */
  orphans: number[];
  /** Asked-for guests on other nodes: "skip external VMs". */
  external: number[];
  /** A named guest without VM.Backup: VZDump's permission check fails the whole task. */
  denied?: number | undefined;
}

/** The job's guests as VZDump::get_included_guests names them: pool, else vmid, else all. */
function selectGuests(ctx: HandlerContext, model: SimCluster, node: string): Selection {
  const pool = str(ctx, "pool");
  let vmids: number[];
  if (pool !== undefined) vmids = model.pool(pool)?.vmids ?? [];
  else if (str(ctx, "vmid") !== undefined) vmids = splitList(str(ctx, "vmid") ?? "").map(Number);
  else {
    const exclude = new Set(splitList(str(ctx, "exclude") ?? "").map(Number));
    vmids = model.state.guests.map((g) => g.vmid).filter((v) => !exclude.has(v));
  }
  const out: Selection = { local: [], orphans: [], external: [] };
  for (const vmid of [...new Set(vmids)].sort((a, b) => a - b)) {
    const guest = model.guest(vmid);
    if (!guest) out.orphans.push(vmid);
    else if (guest.node === node) out.local.push(guest);
    else out.external.push(vmid);
  }
  // with all=1 a guest the caller may not back up is left out; a named one fails the task
  if (flag(ctx, "all")) out.local = out.local.filter((g) => ctx.hasPermission(`/vms/${g.vmid}`, ["VM.Backup"]));
  else out.denied = out.local.find((g) => !ctx.hasPermission(`/vms/${g.vmid}`, ["VM.Backup"]))?.vmid;
  return out;
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The job's command line as VZDump::Common::command_line prints it (options sorted here). */
function commandLine(ctx: HandlerContext): string {
  const parts = ["vzdump", ...splitList(str(ctx, "vmid") ?? "")];
  for (const [key, value] of Object.entries(ctx.params).sort(([a], [b]) => a.localeCompare(b))) {
    if (value === undefined || key === "vmid" || value === "") continue;
    parts.push(`--${key} ${shellQuote(String(value))}`);
  }
  return parts.join(" ");
}

function checkRequest(ctx: HandlerContext): void {
  for (const p of ROOT_ONLY) {
    if (ctx.params[p] !== undefined && ctx.auth.userid !== "root@pam") {
      throw new PveApiError(400, "Parameter verification failed.", { [p]: "Only root may set this option." });
    }
  }
  if (flag(ctx, "stdout")) {
    throw new PveApiError(400, "Parameter verification failed.", { stdout: "option is only allowed on the command line interface." });
  }
  checkNotesTemplate(ctx.params["notes-template"]);
}

function vzdump(ctx: HandlerContext): string {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  model.requireNode(node);
  checkRequest(ctx);
  const storageId = str(ctx, "storage") ?? "local";
  const storage = requireStorage(model.state, storageId, node);
  if (!storage.content.includes("backup")) {
    throw new PveApiError(500, `can't use storage '${storageId}' for backups - wrong content type`);
  }
  const { local, orphans, external, denied } = selectGuests(ctx, model, node);
  // PVE answers a plain "OK" (no task) when every named guest lives on another node
  if (local.length === 0 && orphans.length === 0 && !flag(ctx, "all")) return "OK";
  ctx.checkPermission(`/storage/${storageId}`, ["Datastore.AllocateSpace"]);
  const opts: ArchiveOptions = {
    storage,
    node,
    mode: str(ctx, "mode") ?? "snapshot",
    compress: str(ctx, "compress") ?? "0",
    notesTemplate: str(ctx, "notes-template"),
    protected: flag(ctx, "protected"),
  };
  // remove=0 keeps every old backup; else the job's prune-backups, or the storage's, apply
  const prune = ctx.params.remove !== 0;
  const pruneSpec = str(ctx, "prune-backups");
  const started = model.now();
  const cmdline = commandLine(ctx);
  // VZDump backs the guests up one after another and takes each one's `lock: backup` only for
  // its own turn (a guest already locked then fails). The first turn starts with the task.
  const ours = new Set<number>();
  const lock = (g: GuestState): boolean => {
    if (g.config.lock !== undefined && !ours.has(g.vmid)) return false;
    g.config.lock = "backup";
    ours.add(g.vmid);
    return true;
  };
  const unlock = (g: GuestState) => {
    if (ours.delete(g.vmid) && g.config.lock === "backup") delete g.config.lock;
  };
  const ids = [...local.map((g) => g.vmid), ...orphans];
  const first = local.find((g) => g.vmid === Math.min(...ids));
  if (first && denied === undefined) lock(first);
  return ctx.tasks.start({
    node,
    type: "vzdump",
    id: ids.length === 1 ? String(ids[0]) : "",
    kind: "backup",
    bytes: local.reduce((sum, g) => sum + backupSize(g), 0),
    onFailure: () => {
      for (const g of local) unlock(g);
    },
    work: (task) => {
      const log = (l: string) => task.log(l);
      log(`INFO: starting new backup job: ${cmdline}`);
      if (external.length > 0) log(`INFO: skip external VMs: ${external.join(", ")}`);
      if (denied !== undefined) {
        for (const g of local) unlock(g);
        throw new Error(`Permission check failed (/vms/${denied}, VM.Backup)`);
      }
      let failed = 0;
      let clock = started;
      for (const vmid of [...ids].sort((a, b) => a - b)) {
        const guest = local.find((g) => g.vmid === vmid);
        if (!guest || !model.state.guests.includes(guest)) {
          log(`ERROR: Backup of VM ${vmid} failed - unable to find VM '${vmid}'`);
          failed++;
          continue;
        }
        if (!lock(guest)) {
          log(`ERROR: Backup of VM ${guest.vmid} failed - ${guest.type === "qemu" ? "VM" : "CT"} is locked (${guest.config.lock})`);
          failed++;
          continue;
        }
        const end = backupGuest(model, guest, opts, clock, log);
        unlock(guest);
        if (prune) pruneAfterBackup(model, storage, node, guest, pruneSpec, log);
        finishGuest(guest, clock, end, log);
        clock = end;
      }
      if (failed > 0) throw new Error("job errors");
      log("INFO: Backup job finished successfully");
    },
  });
}

export function registerBackupHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/vzdump", vzdump);
  registerExtractConfigHandler(router);
  registerBackupJobHandlers(router);
}
