// The `backupJobs:` section of a spec file: a list of jobs, each shape-checked on its own (a
// job with a problem does not hide its siblings' problems), normalised, then merged across
// files. Written (even empty), it manages pvectl's jobs; left out, jobs are not managed.
import { z } from "zod";
import type { ObjectSection } from "../object-family.js";
import { mergeBackupJobs } from "./spec-merge.js";
import { type BackupJobSpec, normalizeBackupJob } from "./spec-normalize.js";
import { backupJobSchema } from "./spec-schema.js";

/** One job's schema, built once: the file's schema and the per-job check share it (its JSON Schema id is registered once). */
let entrySchema: ReturnType<typeof backupJobSchema> | undefined;
const jobSchema = () => (entrySchema ??= backupJobSchema());

export const BACKUP_JOB_SECTION: ObjectSection<"backupJobs", BackupJobSpec> = {
  key: "backupJobs",
  schema: () =>
    z
      .array(jobSchema())
      .optional()
      .describe(
        "Backup jobs (/cluster/backup). Written (even empty): pvectl's jobs not listed are deleted; left out: jobs are not managed.",
      ),
  read: ({ raw, hasIssueUnder, locate, sink }) => {
    if (!Array.isArray(raw)) return undefined;
    const jobs: BackupJobSpec[] = [];
    raw.forEach((entry, index) => {
      const path = ["backupJobs", index];
      if (hasIssueUnder(path)) return;
      const checked = jobSchema().safeParse(entry);
      if (!checked.success) return;
      jobs.push(normalizeBackupJob(checked.data, path, locate(path), sink));
    });
    return jobs;
  },
  merge: mergeBackupJobs,
};
