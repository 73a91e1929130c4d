// Backup jobs: the /cluster/backup job list (jobs.cfg); which guests no job covers is backup-info.ts. As PVE 9
// (pve-manager Backup.pm, facts only): an id `backup-<8 hex>-<4 hex>` when none is given; the
// schedule checked by the calendar event parser (parameter validation) and `next-run` computed
// from it; `starttime`/`dow` turned into a schedule; the selection rules (all and vmid or pool
// and vmid conflict, `exclude` implies all, one of them is needed); an update of the selection
// drops the keys of the other shape; property strings (prune-backups, fleecing, performance)
// answered as objects, as PVE's job config parses them.
import { nextCalendarEvent, notesTemplateProblem, parseCalendarEvent, parsePropertyString, splitList } from "../../pve/index.js";
import { getFormat } from "../../schema/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { BackupJob } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { sim, str } from "./context.js";

function nextRun(schedule: string | undefined, now: number): number | undefined {
  if (!schedule) return undefined;
  try {
    return nextCalendarEvent(parseCalendarEvent(schedule), now);
  } catch {
    return undefined;
  }
}

/** Job keys stored as property strings, and their format. */
const PROPERTY_STRINGS: Record<string, string> = {
  "prune-backups": "prune-backups",
  fleecing: "backup-fleecing",
  performance: "backup-performance",
};

/** A property string as PVE's job config answers it: an object, booleans 0/1. */
function asObject(key: string, value: unknown): unknown {
  const format = getFormat(PROPERTY_STRINGS[key]!);
  if (format === undefined || typeof value !== "string") return value;
  try {
    const parsed = parsePropertyString(value, format, key) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === "boolean" ? (v ? 1 : 0) : v]));
  } catch {
    return value;
  }
}

function requireJob(model: SimCluster, id: string): BackupJob {
  const job = model.state.backupJobs.find((j) => j.id === id);
  if (!job) throw new PveApiError(400, "Parameter verification failed.", { id: `No such job '${id}'` });
  return job;
}

function jobView(model: SimCluster, job: BackupJob): Record<string, unknown> {
  const out: Record<string, unknown> = { ...job };
  for (const key of Object.keys(PROPERTY_STRINGS)) if (out[key] !== undefined) out[key] = asObject(key, out[key]);
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

const conflict = (key: string, other: string) =>
  new PveApiError(400, "Parameter verification failed.", { [key]: `option conflicts with option '${other}'` });

/** PVE's notes-template check (verify_vzdump_parameters): a raw line feed would break jobs.cfg. */
export function checkNotesTemplate(template: unknown): void {
  const problem = typeof template === "string" ? notesTemplateProblem(template) : undefined;
  if (problem !== undefined) throw new PveApiError(400, "Parameter verification failed.", { "notes-template": problem });
}

/** PVE's selection rules of a job (verify_vzdump_parameters), on the job as it will be stored. */
function checkSelection(job: BackupJob): void {
  checkNotesTemplate(job["notes-template"]);
  if (job.exclude !== undefined && job.pool === undefined) job.all = 1;
  if (job.all === 1 && job.vmid !== undefined) throw conflict("all", "vmid");
  if (job.pool !== undefined && job.vmid !== undefined) throw conflict("pool", "vmid");
  if (job.all !== 1 && job.pool === undefined && job.vmid === undefined) {
    throw new PveApiError(400, "Parameter verification failed.", { vmid: "property is missing" });
  }
}

/** An update that sets one selection shape drops the keys of the others. */
function dropOtherSelection(ctx: HandlerContext, job: BackupJob): void {
  const drop = (...keys: string[]) => {
    for (const key of keys) delete job[key];
  };
  if (ctx.params.vmid !== undefined) drop("all", "exclude", "pool");
  else if (ctx.params.pool !== undefined) drop("all", "vmid");
  else if (ctx.params.all === 1 || ctx.params.all === "1") drop("vmid", "pool");
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
  checkSelection(job);
  model.state.backupJobs.push(job);
  return null;
}

function updateJob(ctx: HandlerContext): null {
  const model = sim(ctx);
  const current = requireJob(model, str(ctx, "id") ?? "");
  // Checked on a copy: a refused update leaves the job as it was.
  const job: BackupJob = { ...current };
  for (const key of splitList(str(ctx, "delete") ?? "")) delete job[key];
  applyJobParams(ctx, job);
  dropOtherSelection(ctx, job);
  checkSelection(job);
  for (const key of Object.keys(current)) delete current[key];
  Object.assign(current, job);
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
