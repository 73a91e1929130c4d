// What managing the spec's backup jobs needs: reading /cluster/backup (Sys.Audit on /), and
// creating, updating and deleting jobs (the calls the backup-job kind plans, through callNeeds).

import type { DesiredBackupJobs } from "../resources/backup-job/index.js";
import { createJobStep, deleteJobStep, updateJobStep } from "../resources/backup-job/steps.js";
import type { ScopedNeed } from "./access-needs.js";
import { callNeeds } from "./privileges.js";

export type JobNeedsInput = DesiredBackupJobs;

export function jobNeeds(jobs: JobNeedsInput): ScopedNeed[] {
  const out: ScopedNeed[] = [{ path: "/", privilege: "Sys.Audit", operation: "read", user: "backupJobs" }];
  for (const job of jobs.jobs) {
    const steps = [createJobStep(job.id, job.params, job.comment), updateJobStep(job.id, job.params, job.absent, [], false), deleteJobStep(job.id)];
    for (const step of steps) for (const call of step.calls) out.push(...callNeeds(call).map((n) => ({ ...n, operation: "backup-job", user: `backup job ${job.id}` })));
  }
  return out;
}
