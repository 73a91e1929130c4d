// A node's view of replication (/nodes/{node}/replication, pve-manager's Replication API): the
// jobs of the guests that run on the node, with their run state (replication/runs.ts), a log,
// and schedule_now. As PVE's job_status does on each read, a job whose guest now runs on another
// node than its `source` (HA recovered it, or it was migrated) is turned around: the old source
// becomes the target.
import type { ClusterState, ReplicationJob } from "../cluster/types.js";
import { type HandlerContext, PveApiError, PveResult, type Router } from "../contract.js";
import { runState } from "../replication/runs.js";
import { jobConfig, parseJobId, replicationJobs } from "./replication-config.js";
import { nodeParam, num, sim, str } from "./context.js";

/** switch_replication_job_target: the guest's jobs follow it to its new node. */
function followStolenGuest(jobs: ReplicationJob[], vmid: number, node: string, oldSource: string): void {
  for (const job of jobs) {
    if (job.guest !== vmid) continue;
    if (job.target === node) job.target = oldSource;
    job.source = node;
  }
}

/** The jobs this node runs (job_status with disabled jobs): guests on the node, never to itself. */
function nodeJobs(state: ClusterState, node: string, now: number): ReplicationJob[] {
  const jobs = replicationJobs(state, now);
  for (const job of [...jobs]) {
    const guest = state.guests.find((g) => g.vmid === job.guest);
    if (guest?.node === node && job.source !== node) followStolenGuest(jobs, job.guest, node, job.source);
  }
  return jobs.filter((job) => {
    const guest = state.guests.find((g) => g.vmid === job.guest);
    return guest?.node === node && (job.remove_job !== undefined || job.target !== node);
  });
}

function statusEntry(state: ClusterState, job: ReplicationJob, now: number): Record<string, unknown> {
  const guest = state.guests.find((g) => g.vmid === job.guest);
  const run = runState(job, now);
  const out: Record<string, unknown> = { ...jobConfig(job), vmtype: guest?.type, next_sync: run.next_sync, fail_count: run.fail_count };
  if (run.last_sync > 0) Object.assign(out, { last_sync: run.last_sync, last_try: run.last_try, duration: run.duration });
  return out;
}

function list(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  const guest = num(ctx, "guest");
  return nodeJobs(model.state, nodeParam(ctx), ctx.now())
    .filter((j) => guest === undefined || j.guest === guest)
    .filter((j) => ctx.hasPermission(`/vms/${j.guest}`, ["VM.Audit"]))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((j) => statusEntry(model.state, j, ctx.now()));
}

function jobStatus(ctx: HandlerContext): Record<string, unknown> {
  const model = sim(ctx);
  const id = str(ctx, "id") ?? "";
  const job = nodeJobs(model.state, nodeParam(ctx), ctx.now()).find((j) => j.id === id);
  if (!job) throw new PveApiError(500, `no such replication job '${id}'`);
  ctx.checkPermission(`/vms/${job.guest}`, ["VM.Audit"]);
  return statusEntry(model.state, job, ctx.now());
}

function log(ctx: HandlerContext): PveResult {
  const model = sim(ctx);
  const id = str(ctx, "id") ?? "";
  const job = replicationJobs(model.state, ctx.now()).find((j) => j.id === id);
  if (!job) throw new PveApiError(500, `no such replication job '${id}'`);
  const node = nodeParam(ctx);
  if (!ctx.hasPermission(`/vms/${job.guest}`, ["VM.Audit"]) && !ctx.hasPermission(`/nodes/${node}`, ["Sys.Audit"])) {
    throw new PveApiError(403, "Permission check failed");
  }
  const run = runState(job, ctx.now());
  const at = new Date(run.last_sync * 1000).toISOString().replace("T", " ").slice(0, 19);
  const text =
    run.last_sync > 0
      ? [`${at} ${id}: start replication job`, `${at} ${id}: guest => VM ${job.guest}`, `${at} ${id}: end replication job`]
      : [];
  const start = num(ctx, "start") ?? 0;
  const limit = num(ctx, "limit") ?? 50;
  const lines = text.slice(start, start + limit).map((t, i) => ({ n: start + i + 1, t }));
  return new PveResult(lines, { total: text.length });
}

function scheduleNow(ctx: HandlerContext): null {
  const model = sim(ctx);
  const { guest, id } = parseJobId(str(ctx, "id") ?? "");
  ctx.checkPermission(`/vms/${guest}`, ["VM.Replicate"]);
  const job = replicationJobs(model.state, ctx.now()).find((j) => j.id === id);
  if (!job) throw new PveApiError(500, `no such replication job '${id}'`);
  // The run starts at once: the job's run history restarts from now.
  job.created = ctx.now();
  return null;
}

function index(): Array<Record<string, string>> {
  return [{ name: "schedule_now" }, { name: "log" }, { name: "status" }];
}

export function registerReplicationStatusHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/replication", list);
  router.add("GET", "/nodes/{node}/replication/{id}", index);
  router.add("GET", "/nodes/{node}/replication/{id}/status", jobStatus);
  router.add("GET", "/nodes/{node}/replication/{id}/log", log);
  router.add("POST", "/nodes/{node}/replication/{id}/schedule_now", scheduleNow);
}
