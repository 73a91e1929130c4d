// Backup jobs as the cluster has them (GET /cluster/backup), in the diff's normalized form.

import type { ApiReader } from "../../api/endpoints/index.js";
import { type BackupJobEntry, getBackupJobs } from "../../api/endpoints/index.js";
import type { LiveBackupJob } from "./model.js";
import { splitComment } from "./model.js";
import { normalizeJobValue } from "./normalize.js";

/** What PVE adds to a listed job that is not one of its options. */
const NOT_OPTIONS = new Set(["id", "type", "next-run", "comment", "digest"]);

export function liveJob(entry: BackupJobEntry): LiveBackupJob {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (NOT_OPTIONS.has(key) || value === undefined || value === null) continue;
    params[key] = normalizeJobValue(key, value);
  }
  const comment = splitComment(typeof entry.comment === "string" ? entry.comment : undefined);
  return { id: entry.id, params, ...(comment.text !== undefined ? { comment: comment.text } : {}), marked: comment.marked };
}

/** Every backup job of the cluster (vzdump jobs only: other job types are not listed here by PVE). */
export async function readBackupJobs(api: ApiReader): Promise<LiveBackupJob[]> {
  return (await getBackupJobs(api)).map(liveJob);
}
