// The cluster objects a spec may declare besides guests, per kind (backup jobs today; access
// objects next). Absent kinds are not managed at all.
import type { DesiredBackupJobs } from "./backup-job/index.js";

export interface DesiredObjects {
  backupJobs?: DesiredBackupJobs;
}
