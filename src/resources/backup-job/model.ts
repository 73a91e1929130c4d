// Backup jobs (/cluster/backup, PVE's jobs.cfg) as desired state. A job is keyed by its id;
// pvectl marks the jobs it manages with a marker at the end of their `comment` (the user's own
// comment text stays before it), as guests carry the ownership tag.

/** The end of the `comment` of every job pvectl manages (the marker every commented object carries). */
export { markedComment, OBJECT_MARKER as BACKUP_JOB_MARKER, splitComment } from "../object-marker.js";

/** A job as the spec wants it: only the keys the spec names are compared and written. */
export interface DesiredBackupJob {
  id: string;
  /** PVE keys the spec sets, each in the one form live values are normalized to (normalize.ts). */
  params: Record<string, string>;
  /** PVE keys the spec wants gone (the keys of another selection shape, an emptied list). */
  absent: string[];
  /** The user's comment text (without the marker); undefined: not managed. */
  comment?: string;
  /** Manage a job of that id that pvectl did not create (it gets the marker). */
  adopt: boolean;
  /** Where the spec declares it (`file:line`), for messages. */
  where?: string;
}

/**
 * The spec's backup jobs on one cluster. Present (even with no jobs) when a spec file writes
 * `backupJobs:`: then jobs with pvectl's marker that the spec does not list are deleted.
 * Absent: backup jobs are not managed at all.
 */
export interface DesiredBackupJobs {
  jobs: DesiredBackupJob[];
}

/** A job as read from /cluster/backup. */
export interface LiveBackupJob {
  id: string;
  /** Its keys in normalized form, without id, type, next-run and comment. */
  params: Record<string, string>;
  /** The comment's text without the marker (undefined: none). */
  comment?: string;
  /** It carries pvectl's marker. */
  marked: boolean;
}
