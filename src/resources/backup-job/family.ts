// The backup-job family as the registry (resources/objects.ts) sees it: its spec section, how
// its jobs are planned, read back, checked for privileges, shown and named.
import type { FamilyDefinition } from "../object-family.js";
import { planBackupJobs } from "./diff.js";
import type { DesiredBackupJobs } from "./model.js";
import { jobCallNeeds } from "./privileges.js";
import { readBackupJobs } from "./read.js";
import { BACKUP_JOB_SECTION } from "./section.js";
import type { BackupJobSpec } from "./spec-normalize.js";
import { createJobStep, deleteJobStep, updateJobStep } from "./steps.js";
import { backupJobToSpec } from "./to-spec.js";

export const BACKUP_JOBS: FamilyDefinition<"backupJobs", BackupJobSpec, DesiredBackupJobs, Array<Record<string, unknown>>> = {
  section: BACKUP_JOB_SECTION,
  kinds: ["backup-job"],
  desired: (entries) => ({ jobs: entries.map((job) => job.desired) }),
  plan: async (api, jobs, options) => planBackupJobs(jobs, await readBackupJobs(api), options),
  landed: async (api, intent) => {
    const job = (await readBackupJobs(api)).find((j) => j.id === intent.key);
    if (intent.op === "object-create") return job?.marked === true;
    if (intent.op === "object-delete") return job === undefined;
    return false;
  },
  callNeeds: jobCallNeeds,
  accessNeeds: {
    operation: "backup-job",
    plural: "backup jobs",
    // Planning reads /cluster/backup whatever the spec lists.
    reads: () => [{ path: "/", privilege: "Sys.Audit", user: "backupJobs" }],
    everyCall: (desired) =>
      desired.jobs.flatMap((job) =>
        [
          createJobStep(job.id, job.params, job.comment),
          updateJobStep(job.id, job.params, job.absent, [], false),
          deleteJobStep(job.id),
        ].flatMap((step) => step.calls.map((call) => ({ object: `backup job ${job.id}`, call }))),
      ),
  },
  show: {
    importFlag: {
      flag: "--backup-jobs",
      description: "every backup job of the cluster under backupJobs: (those pvectl did not create with adopt: true)",
      inAll: "every backup job",
    },
    declared: async (api, entries) => {
      const live = new Map((await readBackupJobs(api)).map((job) => [job.id, job]));
      const jobs: Array<Record<string, unknown>> = [];
      const missing: string[] = [];
      for (const { id } of entries) {
        const job = live.get(id);
        if (job) jobs.push(backupJobToSpec(job));
        else missing.push(`backup job ${id}: does not exist`);
      }
      return { section: jobs, missing };
    },
    // Every job: a spec that writes `backupJobs:` manages them all (pvectl's jobs it does not
    // list are deleted), so an import writes each one, foreign ones with `adopt: true`.
    everything: async (api) => (await readBackupJobs(api)).map(backupJobToSpec),
  },
  render: { nouns: { "backup-job": "backup job" } },
};
