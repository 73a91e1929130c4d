// The three steps of a backup job: create (POST), update (PUT with `delete`), delete. Calls go
// by the job's id, which the spec gives, so a create whose answer was lost is found by reading
// the list back (the executor never sends it twice).
import { endpointCall } from "../../plan/call.js";
import type { ObjectIntent } from "../../plan/intent.js";
import type { FieldChange, ParamValue, StepDraft } from "../../plan/types.js";
import { markedComment } from "./model.js";

function intent(op: ObjectIntent["op"], key: string): ObjectIntent {
  return { kind: "object", object: "backup-job", op, key };
}

export function createJobStep(id: string, params: Record<string, string>, comment: string | undefined): StepDraft {
  const sent: Record<string, ParamValue> = { id, ...params, comment: markedComment(comment) };
  const changes: FieldChange[] = Object.keys(params)
    .sort()
    .map((field) => ({ field, after: params[field]! }));
  if (comment !== undefined) changes.push({ field: "comment", after: comment });
  return {
    action: "object-create",
    severity: "configuration",
    summary: `create backup job ${id}`,
    changes,
    calls: [{ ...endpointCall("POST", "/cluster/backup", {}, sent), intent: intent("object-create", id) }],
  };
}

export function updateJobStep(
  id: string,
  set: Record<string, string>,
  deletes: string[],
  changes: FieldChange[],
  adopting: boolean,
): StepDraft {
  const params: Record<string, ParamValue> = { ...set };
  if (deletes.length > 0) params.delete = deletes.join(",");
  return {
    action: "object-update",
    severity: "configuration",
    summary: adopting ? `adopt backup job ${id} (pvectl's marker added to its comment)` : `update backup job ${id}`,
    changes,
    calls: [{ ...endpointCall("PUT", "/cluster/backup/{id}", { id }, params), intent: intent("object-update", id) }],
  };
}

/**
 * Deleting a job destroys no backup, but no backup runs from it any more: service-impact,
 * guarded like the other steps that disturb a running service (--allow-restart).
 */
export function deleteJobStep(id: string): StepDraft {
  return {
    action: "object-delete",
    severity: "service-impact",
    summary: `delete backup job ${id} (pvectl's, no longer in the spec): its guests are not backed up by it any more; existing backups are kept`,
    changes: [],
    calls: [{ ...endpointCall("DELETE", "/cluster/backup/{id}", { id }), intent: intent("object-delete", id) }],
  };
}
