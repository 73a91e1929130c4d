// The cluster objects a spec may declare besides guests, per kind (backup jobs today; access
// objects next), and what the engine may call of each: the engine reaches an object kind only
// through this registry, never its folder. Absent kinds are not managed at all.
import type { ObjectIntent } from "../plan/intent.js";
import type { ParamValue, PrivilegeNeed } from "../plan/types.js";
import { type DesiredBackupJobs, jobCallNeeds } from "./backup-job/index.js";

export { type JobPlans, planBackupJobs, readBackupJobs } from "./backup-job/index.js";

export interface DesiredObjects {
  backupJobs?: DesiredBackupJobs;
}

/** What an object kind checks inside its handlers beyond the endpoint's own check, per call. */
export function objectCallNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  switch (intent.object) {
    case "backup-job":
      return jobCallNeeds(intent, params);
  }
}
