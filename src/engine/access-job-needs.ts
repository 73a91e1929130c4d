// What managing the spec's backup jobs needs: reading /cluster/backup (Sys.Audit on /), and
// creating, updating and deleting jobs (the calls the backup-job family can make, from the
// object registry, through callNeeds).
import { type DesiredBackupJobs, OBJECT_FAMILIES } from "../resources/objects.js";
import type { ScopedNeed } from "./access-needs.js";
import { callNeeds } from "./privileges.js";

export type JobNeedsInput = DesiredBackupJobs;

export function jobNeeds(jobs: JobNeedsInput): ScopedNeed[] {
  const out: ScopedNeed[] = [{ path: "/", privilege: "Sys.Audit", operation: "read", user: "backupJobs" }];
  for (const family of OBJECT_FAMILIES)
    for (const { object, call } of family.everyCall?.({ backupJobs: jobs }) ?? [])
      out.push(...callNeeds(call).map((n) => ({ ...n, operation: "backup-job", user: object })));
  return out;
}
