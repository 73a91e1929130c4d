// Plans the spec's backup jobs against the cluster's: create the missing, update the keys the
// spec names that differ (a key the spec leaves out is not looked at), delete pvectl's jobs the
// spec no longer lists, and list foreign jobs as not managed. A job of a spec id that pvectl
// did not create is refused unless the spec says `adopt: true`.
import type { FieldChange, ObjectPlan, Step, StepDraft } from "../../plan/types.js";
import type { DesiredBackupJob, DesiredBackupJobs, LiveBackupJob } from "./model.js";
import { BACKUP_JOB_MARKER, markedComment } from "./model.js";
import { jobDefault } from "./normalize.js";
import { createJobStep, deleteJobStep, updateJobStep } from "./steps.js";

export interface JobPlans {
  objects: ObjectPlan[];
  /** Spec jobs whose id is a job pvectl did not create (no adopt): why they are refused. */
  refused: Array<{ key: string; message: string }>;
}

function numbered(key: string, drafts: StepDraft[]): Step[] {
  return drafts.map((draft, i) => ({ id: `backup-job:${key}/${i + 1}-${draft.action}`, ...draft }));
}

function plan(key: string, exists: boolean, drafts: StepDraft[], extra: Partial<ObjectPlan> = {}): ObjectPlan {
  return { kind: "backup-job", key, exists, steps: numbered(key, drafts), errors: [], warnings: [], ...extra };
}

/** The update of an existing job: the keys the spec names that differ, and the keys it wants gone. */
function updateOf(job: DesiredBackupJob, live: LiveBackupJob): StepDraft | undefined {
  const set: Record<string, string> = {};
  const changes: FieldChange[] = [];
  for (const key of Object.keys(job.params).sort()) {
    const want = job.params[key]!;
    const have = live.params[key];
    if (want === (have ?? jobDefault(key))) continue;
    set[key] = want;
    changes.push({ field: key, ...(have !== undefined ? { before: have } : {}), after: want });
  }
  // PVE takes notes-template and protected only next to storage (the schema's `requires`).
  if (
    (set["notes-template"] !== undefined || set.protected !== undefined) &&
    set.storage === undefined &&
    job.params.storage !== undefined
  ) {
    set.storage = job.params.storage;
  }
  const deletes = job.absent.filter((key) => live.params[key] !== undefined).sort();
  for (const key of deletes) changes.push({ field: key, before: live.params[key]! });
  const text = job.comment ?? live.comment;
  if (!live.marked || (job.comment !== undefined && job.comment !== (live.comment ?? ""))) {
    set.comment = markedComment(text);
    changes.push({ field: "comment", ...(live.comment !== undefined ? { before: live.comment } : {}), after: text ?? "" });
  }
  if (changes.length === 0) return undefined;
  return updateJobStep(job.id, set, deletes, changes, !live.marked);
}

function adoptionRefusal(job: DesiredBackupJob): string {
  const where = job.where ? ` (${job.where})` : "";
  return `backup job ${job.id}${where} exists but was not created by pvectl (no ${BACKUP_JOB_MARKER} marker in its comment); add \`adopt: true\` to the spec entry to manage it, or give the spec job another id`;
}

export function planBackupJobs(desired: DesiredBackupJobs, live: LiveBackupJob[], options: { adopt?: boolean } = {}): JobPlans {
  const byId = new Map(live.map((j) => [j.id, j]));
  const wanted = new Set(desired.jobs.map((j) => j.id));
  const objects: ObjectPlan[] = [];
  const refused: JobPlans["refused"] = [];
  for (const job of desired.jobs) {
    const current = byId.get(job.id);
    if (current === undefined) {
      objects.push(plan(job.id, false, [createJobStep(job.id, job.params, job.comment)]));
      continue;
    }
    if (!current.marked && !job.adopt && !options.adopt) {
      const message = adoptionRefusal(job);
      objects.push(plan(job.id, true, [], { errors: [`left alone: ${message}`] }));
      refused.push({ key: job.id, message });
      continue;
    }
    const update = updateOf(job, current);
    objects.push(plan(job.id, true, update ? [update] : []));
  }
  for (const job of live) {
    if (wanted.has(job.id)) continue;
    if (job.marked) objects.push(plan(job.id, true, [deleteJobStep(job.id)]));
    else objects.push(plan(job.id, true, [], { foreign: true }));
  }
  return { objects, refused };
}
