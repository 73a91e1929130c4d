// GET /cluster/backup-info/not-backed-up as pve-manager computes it: every vzdump job counts,
// enabled or not, and names its guests the way VZDump::get_included_guests does (a pool wins
// over a vmid list, which wins over `all` minus `exclude`; a job's `node` limits it to the
// guests on that node). Templates are guests like any other. Guests the caller cannot audit
// are left out.
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { BackupJob } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { sim } from "./context.js";

/** The vmids a vzdump job backs up (existing guests only). */
export function jobGuests(model: SimCluster, job: BackupJob): number[] {
  let vmids: number[];
  if (job.pool !== undefined) vmids = model.pool(String(job.pool))?.vmids ?? [];
  else if (job.vmid !== undefined) vmids = splitList(String(job.vmid)).map(Number);
  else if (Number(job.all) === 1) {
    const exclude = new Set(splitList(String(job.exclude ?? "")).map(Number));
    vmids = model.state.guests.map((g) => g.vmid).filter((v) => !exclude.has(v));
  } else vmids = [];
  const node = job.node !== undefined ? String(job.node) : undefined;
  return vmids.filter((v) => {
    const guest = model.guest(v);
    return guest !== undefined && (node === undefined || guest.node === node);
  });
}

function notBackedUp(ctx: HandlerContext): Array<Record<string, string | number>> {
  const model = sim(ctx);
  const covered = new Set<number>();
  for (const job of model.state.backupJobs) {
    if (job.type !== undefined && job.type !== "vzdump") continue;
    for (const v of jobGuests(model, job)) covered.add(v);
  }
  return model.state.guests
    .filter((g) => !covered.has(g.vmid) && ctx.hasPermission(`/vms/${g.vmid}`, ["VM.Audit"]))
    .sort((a, b) => a.vmid - b.vmid)
    .map((g) => {
      // the config's own name (qemu `name`, lxc `hostname`), absent when unset
      const name = g.config[g.type === "qemu" ? "name" : "hostname"];
      return { vmid: g.vmid, type: g.type, ...(name !== undefined ? { name: String(name) } : {}) };
    });
}

export function registerBackupInfoHandlers(router: Router): void {
  router.add("GET", "/cluster/backup-info/not-backed-up", notBackedUp);
}
