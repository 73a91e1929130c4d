// The backup jobs of every spec file, checked against each other: each names a defined
// connection (or the only one), and an id once per cluster.
import type { SpecIssue } from "../spec-section/issues.js";
import { mergeKeyedEntries } from "../spec-section/keyed-merge.js";
import type { BackupJobSpec } from "./spec-normalize.js";

export function mergeBackupJobs(jobs: BackupJobSpec[], names: string[], issues: SpecIssue[]): BackupJobSpec[] {
  return mergeKeyedEntries(
    {
      section: "backupJobs",
      label: (job) => `backup job ${job.id}`,
      key: (job) => job.id,
      keyField: "id",
      keyNoun: "backup job id",
      unique: "a job id names one job of a cluster",
    },
    jobs,
    names,
    issues,
  );
}
