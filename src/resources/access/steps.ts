// The calls of every access step. Each goes by the object's id, which the spec gives, so a
// create whose answer was lost is found by reading back (landed.ts), never sent twice.
import { endpointCall } from "../../plan/call.js";
import type { ObjectIntent, ObjectKind } from "../../plan/intent.js";
import type { ApiCall, FieldChange, ParamValue, SecretSink, Severity, StepDraft } from "../../plan/types.js";
import type { AclSubjectType } from "./model.js";

type Op = ObjectIntent["op"];
type CallShape = Omit<ApiCall, "intent">;
type Body = Record<string, ParamValue>;

const ACTION: Record<Op, StepDraft["action"]> = {
  "object-create": "object-create",
  "object-update": "object-update",
  "object-delete": "object-delete",
};

export function accessStep(
  object: ObjectKind,
  op: Op,
  key: string,
  summary: string,
  changes: FieldChange[],
  call: CallShape,
  options: { severity?: Severity; grants?: string[] } = {},
): StepDraft {
  const intent: ObjectIntent = { kind: "object", object, op, key, ...(options.grants ? { grants: options.grants } : {}) };
  return { action: ACTION[op], severity: options.severity ?? "configuration", summary, changes, calls: [{ ...call, intent }] };
}

/** Calls on one access object by its id (`PUT`: update, `DELETE`: delete). */
export const roleCall = (method: "PUT" | "DELETE", id: string, body: Body = {}): CallShape =>
  endpointCall(method, "/access/roles/{roleid}", { roleid: id }, body);
export const groupCall = (method: "PUT" | "DELETE", id: string, body: Body = {}): CallShape =>
  endpointCall(method, "/access/groups/{groupid}", { groupid: id }, body);
export const userCall = (method: "PUT" | "DELETE", id: string, body: Body = {}): CallShape =>
  endpointCall(method, "/access/users/{userid}", { userid: id }, body);
export const tokenCall = (method: "POST" | "PUT" | "DELETE", user: string, name: string, body: Body = {}): CallShape =>
  endpointCall(method, "/access/users/{userid}/token/{tokenid}", { userid: user, tokenid: name }, body);

/** The token's secret goes to `sink`: PVE shows it in this answer only. */
export function tokenCreateCall(user: string, name: string, params: Record<string, ParamValue>, sink: SecretSink): CallShape {
  return { ...tokenCall("POST", user, name, params), revealsSecret: { field: "value", to: sink } };
}

const SUBJECT_PARAM: Record<AclSubjectType, string> = { user: "users", group: "groups", token: "tokens" };

/** PUT /access/acl for one entry; `remove` takes it away (PVE's `delete=1`). */
export function aclCall(
  entry: { path: string; type: AclSubjectType; ugid: string; role: string; propagate: boolean },
  remove: boolean,
): CallShape {
  const params: Record<string, ParamValue> = { path: entry.path, roles: entry.role, [SUBJECT_PARAM[entry.type]]: entry.ugid };
  if (remove) params.delete = 1;
  else params.propagate = entry.propagate ? 1 : 0;
  return endpointCall("PUT", "/access/acl", {}, params);
}
