// Which guests the cluster's backup jobs back up, as VZDump's get_included_guests picks a job's
// guests (a pool wins over a vmid list, which wins over `all` minus `exclude`; a job's `node`
// limits it to that node's guests), counting only enabled jobs: a disabled job backs nothing
// up, though PVE's own not-backed-up list counts it.
import type { LiveBackupJob } from "./model.js";

export interface CoverableGuest {
  vmid: number;
  node: string;
  pool?: string;
}

/** A job is enabled unless it says `enabled 0` (PVE's default is 1). */
function enabled(job: LiveBackupJob): boolean {
  return job.params.enabled !== "0";
}

function ids(list: string | undefined): Set<number> {
  return new Set(
    (list ?? "")
      .split(",")
      .filter((v) => v !== "")
      .map(Number),
  );
}

function includes(job: LiveBackupJob, guest: CoverableGuest): boolean {
  const { pool, vmid, all, exclude, node } = job.params;
  if (node !== undefined && guest.node !== node) return false;
  if (pool !== undefined) return guest.pool === pool;
  if (vmid !== undefined) return ids(vmid).has(guest.vmid);
  return all === "1" && !ids(exclude).has(guest.vmid);
}

/** The vmids of `guests` that some enabled job backs up. */
export function coveredByEnabledJobs(jobs: LiveBackupJob[], guests: CoverableGuest[]): Set<number> {
  const active = jobs.filter(enabled);
  return new Set(guests.filter((g) => active.some((job) => includes(job, g))).map((g) => g.vmid));
}
