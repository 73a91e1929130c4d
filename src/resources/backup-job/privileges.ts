// What PVE checks inside the backup job handlers beyond the endpoint's Sys.Modify on /
// (pve-manager's Backup.pm): a job that backs up a pool needs VM.Backup on that pool; the
// options that tune the node (bwlimit, ionice, performance) need Sys.Modify on / as well, which
// the endpoint's own check already demands.
import type { ObjectIntent } from "../../plan/intent.js";
import type { ParamValue, PrivilegeNeed } from "../../plan/types.js";

export function jobCallNeeds(intent: ObjectIntent, params: Record<string, ParamValue>): PrivilegeNeed[] {
  if (intent.op === "object-delete") return [];
  const pool = params.pool;
  return pool !== undefined && pool !== "" ? [{ path: `/pool/${pool}`, privilege: "VM.Backup" }] : [];
}
