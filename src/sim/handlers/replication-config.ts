// Storage replication jobs (/cluster/replication, replication.cfg), as pve-manager's
// ReplicationConfig API and pve-guest-common's ReplicationConfig store them (facts only): ids
// `<guest>-<jobnum>`, one `local` job per guest and target, the guest's current node as `source`,
// jobs only for guests with replicatable volumes, VM.Audit to read and VM.Replicate to write.
// DELETE only marks a job (`remove_job`); the scheduler removes it (replication/runs.ts).
import { createHash } from "node:crypto";
import { splitList } from "../../pve/index.js";
import type { ClusterState, ReplicationJob } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { dropRemovedJobs } from "../replication/runs.js";
import { replicatableVolumes } from "../replication/volumes.js";
import { flag, sim, str } from "./context.js";

/** Options an update may set or delete (`target` is fixed: set at creation only). */
const OPTIONAL = ["comment", "disable", "rate", "schedule", "remove_job", "source"] as const;

/** parse_replication_job_id: the guest and job number, or PVE's parameter error. */
export function parseJobId(id: string): { guest: number; jobnum: number; id: string } {
  const m = /^(\d+)-(\d+)$/.exec(id);
  const invalid = `invalid replication job id '${id}'`;
  if (!m) throw new PveApiError(400, "Parameter verification failed.", { id: invalid });
  const guest = Number(m[1]);
  if (guest < 100) throw new PveApiError(400, "Parameter verification failed.", { id: `${invalid} (guest IDs < 100 are reserved)` });
  return { guest, jobnum: Number(m[2]), id: `${guest}-${Number(m[2])}` };
}

export function replicationJobs(state: ClusterState, now: number): ReplicationJob[] {
  dropRemovedJobs(state, now);
  state.replicationJobs ??= [];
  return state.replicationJobs;
}

/** A job as the API answers it: its configuration, without the simulator's bookkeeping. */
export function jobConfig(job: ReplicationJob): Record<string, unknown> {
  const { created: _created, removeMarked: _removeMarked, ...config } = job;
  return config;
}

function digestOf(jobs: ReplicationJob[]): string {
  // PVE's digest is replication.cfg's SHA-1; any stable hash of the jobs serves clients.
  return createHash("sha1")
    .update(JSON.stringify(jobs.map(jobConfig)))
    .digest("hex");
}

function requireJob(jobs: ReplicationJob[], id: string, message: string): ReplicationJob {
  const job = jobs.find((j) => j.id === id);
  if (!job) throw new PveApiError(500, message);
  return job;
}

function list(ctx: HandlerContext): Array<Record<string, unknown>> {
  return replicationJobs(sim(ctx).state, ctx.now())
    .filter((j) => ctx.hasPermission(`/vms/${j.guest}`, ["VM.Audit"]))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(jobConfig);
}

function read(ctx: HandlerContext): Record<string, unknown> {
  const jobs = replicationJobs(sim(ctx).state, ctx.now());
  const id = str(ctx, "id") ?? "";
  const job = requireJob(jobs, id, `no such replication job '${id}'`);
  ctx.checkPermission(`/vms/${job.guest}`, ["VM.Audit"]);
  return { ...jobConfig(job), digest: digestOf(jobs) };
}

function setOptions(ctx: HandlerContext, job: ReplicationJob): void {
  for (const key of OPTIONAL) {
    const value = ctx.params[key];
    if (value === undefined) continue;
    if (key === "rate" || key === "disable") job[key] = Number(value);
    else if (key === "remove_job") job.remove_job = value === "full" ? "full" : "local";
    else job[key] = String(value);
  }
}

function create(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { guest: vmid, jobnum, id } = parseJobId(str(ctx, "id") ?? "");
  ctx.checkPermission(`/vms/${vmid}`, ["VM.Replicate"]);
  const guest = model.guest(vmid);
  if (!guest) throw new PveApiError(500, `Guest '${vmid}' does not exist.`);
  const target = str(ctx, "target") ?? "";
  if (!model.state.nodes.some((n) => n.name === target)) throw new PveApiError(500, `Target '${target}' does not exist.`);
  const source = str(ctx, "source");
  if (source !== undefined && source !== guest.node) {
    throw new PveApiError(500, `Source '${source}' does not match current node of guest '${vmid}' (${guest.node})`);
  }
  if (target === guest.node) throw new PveApiError(500, "Source and target must not be identical");
  let volumes: string[];
  try {
    volumes = replicatableVolumes(model.state, guest);
  } catch (err) {
    throw new PveApiError(500, (err as Error).message);
  }
  if (volumes.length === 0) throw new PveApiError(500, "No replicatable volumes found");
  const jobs = replicationJobs(model.state, ctx.now());
  if (jobs.some((j) => j.id === id)) throw new PveApiError(500, `replication job '${id}' already exists`);
  if (jobs.some((j) => j.guest === vmid && j.target === target)) {
    throw new PveApiError(500, `replication job for guest '${vmid}' to target 'local/${target}' already exists`);
  }
  const job: ReplicationJob = { id, type: "local", guest: vmid, jobnum, target, source: guest.node, created: ctx.now() };
  setOptions(ctx, job);
  job.source = guest.node;
  jobs.push(job);
  return null;
}

function update(ctx: HandlerContext): null {
  const jobs = replicationJobs(sim(ctx).state, ctx.now());
  const { guest, id } = parseJobId(str(ctx, "id") ?? "");
  ctx.checkPermission(`/vms/${guest}`, ["VM.Replicate"]);
  const digest = str(ctx, "digest");
  if (digest !== undefined && digest !== digestOf(jobs)) {
    throw new PveApiError(500, "detected modified configuration - file changed by other user? Try again.");
  }
  const job = requireJob(jobs, id, `no such job '${id}'`);
  setOptions(ctx, job);
  for (const key of splitList(str(ctx, "delete") ?? "")) {
    if (key === "target" || key === "type") throw new PveApiError(500, `unable to delete required option '${key}'`);
    if (!(OPTIONAL as readonly string[]).includes(key)) throw new PveApiError(500, `no such option '${key}'`);
    delete job[key as (typeof OPTIONAL)[number]];
  }
  return null;
}

function remove(ctx: HandlerContext): null {
  const state = sim(ctx).state;
  const jobs = replicationJobs(state, ctx.now());
  const { guest, id } = parseJobId(str(ctx, "id") ?? "");
  ctx.checkPermission(`/vms/${guest}`, ["VM.Replicate"]);
  if (flag(ctx, "force")) {
    if (flag(ctx, "keep")) throw new PveApiError(400, "Parameter verification failed.", { keep: "conflicts with parameter 'force'" });
    state.replicationJobs = jobs.filter((j) => j.id !== id);
    return null;
  }
  const job = requireJob(jobs, id, `no such job '${id}'`);
  job.remove_job = !flag(ctx, "keep") && job.type === "local" ? "full" : "local";
  job.removeMarked = ctx.now();
  return null;
}

/** A guest's jobs, for destroy: refused without purge (check_for_existing_jobs), removed with it. */
export function guestReplicationJob(state: ClusterState, vmid: number): ReplicationJob | undefined {
  return state.replicationJobs?.find((j) => j.guest === vmid);
}

export function removeGuestReplicationJobs(state: ClusterState, vmid: number): void {
  if (state.replicationJobs) state.replicationJobs = state.replicationJobs.filter((j) => j.guest !== vmid);
}

export function registerReplicationConfigHandlers(router: Router): void {
  router.add("GET", "/cluster/replication", list);
  router.add("POST", "/cluster/replication", create);
  router.add("GET", "/cluster/replication/{id}", read);
  router.add("PUT", "/cluster/replication/{id}", update);
  router.add("DELETE", "/cluster/replication/{id}", remove);
}
