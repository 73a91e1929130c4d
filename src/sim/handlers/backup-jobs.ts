// Backup jobs: the /cluster/backup job list (jobs.cfg). Which guests no job covers is backup-info.ts.
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { BackupJob } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";

function nextRun(schedule: string | undefined, now: number): number | undefined {
  if (!schedule) return undefined;
  const m = /(\d{1,2}):(\d{2})/.exec(schedule);
  if (!m) return now + 3600;
  const day = Math.floor(now / 86_400) * 86_400;
  let t = day + Number(m[1]) * 3600 + Number(m[2]) * 60;
  if (t <= now) t += 86_400;
  return t;
}

function requireJob(model: SimCluster, id: string): BackupJob {
  const job = model.state.backupJobs.find((j) => j.id === id);
  if (!job) throw new PveApiError(400, "Parameter verification failed.", { id: `No such job '${id}'` });
  return job;
}

function jobView(model: SimCluster, job: BackupJob): Record<string, unknown> {
  const out: Record<string, unknown> = { ...job };
  const next = job.enabled === 0 ? undefined : nextRun(String(job.schedule ?? ""), model.now());
  if (next !== undefined) out["next-run"] = next;
  return out;
}

const JOB_CONTROL = new Set(["id", "starttime", "dow", "delete", "digest"]);

function applyJobParams(ctx: HandlerContext, job: BackupJob): void {
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || JOB_CONTROL.has(key)) continue;
    job[key] = value;
  }
  const starttime = str(ctx, "starttime");
  if (starttime !== undefined) {
    const dow = str(ctx, "dow");
    job.schedule = dow && dow !== "mon,tue,wed,thu,fri,sat,sun" ? `${dow} ${starttime}` : starttime;
  }
}

function listJobs(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  return model.state.backupJobs.map((j) => jobView(model, j));
}

function createJob(ctx: HandlerContext): null {
  const model = sim(ctx);
  const id = str(ctx, "id") ?? `backup-${model.deps.random.hex(4)}-${model.deps.random.hex(2)}`;
  if (model.state.backupJobs.some((j) => j.id === id)) throw new PveApiError(500, `Job '${id}' already exists`);
  if (ctx.params.schedule === undefined && ctx.params.starttime === undefined) {
    throw new PveApiError(400, "Parameter verification failed.", { schedule: "neither 'starttime' nor 'schedule' were set" });
  }
  const job: BackupJob = { id, type: "vzdump", enabled: 1 };
  applyJobParams(ctx, job);
  model.state.backupJobs.push(job);
  return null;
}

function updateJob(ctx: HandlerContext): null {
  const model = sim(ctx);
  const job = requireJob(model, str(ctx, "id") ?? "");
  applyJobParams(ctx, job);
  for (const key of splitList(str(ctx, "delete") ?? "")) delete job[key];
  return null;
}

function deleteJob(ctx: HandlerContext): null {
  const model = sim(ctx);
  const job = requireJob(model, str(ctx, "id") ?? "");
  model.state.backupJobs = model.state.backupJobs.filter((j) => j !== job);
  return null;
}

export function registerBackupJobHandlers(router: Router): void {
  router.add("GET", "/cluster/backup", listJobs);
  router.add("POST", "/cluster/backup", createJob);
  router.add("GET", "/cluster/backup/{id}", (ctx) => jobView(sim(ctx), requireJob(sim(ctx), str(ctx, "id") ?? "")));
  router.add("PUT", "/cluster/backup/{id}", updateJob);
  router.add("DELETE", "/cluster/backup/{id}", deleteJob);
}
