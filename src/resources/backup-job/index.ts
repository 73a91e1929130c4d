// The backup-job kind: jobs of /cluster/backup as desired state (model, read, diff, steps, to-spec).

export { type JobPlans, planBackupJobs } from "./diff.js";
export {
  BACKUP_JOB_MARKER,
  type DesiredBackupJob,
  type DesiredBackupJobs,
  type LiveBackupJob,
  markedComment,
  splitComment,
} from "./model.js";
export { jobDefault, jobParamSchemas, normalizeJobValue } from "./normalize.js";
export { type CoverableGuest, coveredByEnabledJobs } from "./coverage.js";
export { jobCallNeeds } from "./privileges.js";
export { createJobStep, deleteJobStep, updateJobStep } from "./steps.js";
export { liveJob, readBackupJobs } from "./read.js";
export { backupJobToSpec } from "./to-spec.js";
