// A token whose secret is lost: it exists on the cluster, its spec entry names a secretFile,
// and the file holds no secret (a run killed between the token's create and the write of the
// file leaves it empty). PVE shows a secret only in the answer to the create, and the PVE 9
// this tool models has no call that makes a new one for an existing token (the `regenerate`
// flag of PUT .../token/{tokenid} came with pve-access-control 9.1.0), so the repair deletes
// the token and creates it again as the spec and the cluster have it (privsep, expire,
// comment), its new secret to the file. Deleting a token drops its ACL entries
// (AccessControl.pm parse_user_config ignores entries of a token that does not exist), so
// every entry it has now is granted again, whether the spec lists ACL entries or not: the
// entries stay as they were, the ACL steps of the plan do the rest. The old secret stops
// working, so the step is `secret-reset`, run only with --allow-secret-reset.
import type { ApiCall, FieldChange, ParamValue, StepDraft } from "../../plan/types.js";
import { markedComment } from "../object-marker.js";
import { showExpire } from "./kinds.js";
import {
  type DesiredAccess,
  type DesiredToken,
  type LiveAccess,
  type LiveAcl,
  type LiveToken,
  type SecretFileState,
  aclKey,
  tokenKey,
} from "./model.js";
import { rolePrivileges } from "./plan-acls.js";
import type { CommentedKind } from "./plan-commented.js";
import { aclCall, tokenCreateCall, tokenCall } from "./steps.js";

const describe = (a: LiveAcl) => `${a.role} on ${a.path}${a.propagate ? " (propagating)" : ""}`;

/** The token's ACL entries as they are now, each granted again after the token is made anew. */
function regrants(token: LiveToken, desired: DesiredAccess, live: LiveAccess): ApiCall[] {
  const key = tokenKey(token);
  return live.acls
    .filter((a) => a.type === "token" && a.ugid === key)
    .map((a) => ({
      ...aclCall(a, false),
      intent: {
        kind: "object" as const,
        object: "access-acl" as const,
        op: "object-create" as const,
        key: aclKey(a),
        grants: rolePrivileges(a.role, desired, live) ?? [],
      },
    }));
}

/** The step that gives token `l` (listed as `d`) a new secret in `file`, which `why` holds none. */
export function secretResetStep(
  d: DesiredToken,
  l: LiveToken,
  file: string,
  why: string,
  desired: DesiredAccess,
  live: LiveAccess,
): StepDraft {
  const key = tokenKey(d);
  const expire = d.expire ?? l.expire;
  const params: Record<string, ParamValue> = { privsep: d.privsep ? 1 : 0, expire, comment: markedComment(d.comment ?? l.comment) };
  const grants = regrants(l, desired, live);
  const intent = (op: "object-delete" | "object-create") => ({ kind: "object" as const, object: "access-token" as const, op, key });
  const changes: FieldChange[] = [
    { field: "secret", before: `lost (secretFile ${why})`, after: `new, written to ${file} (mode 0600)` },
    { field: "privsep", after: String(d.privsep) },
    { field: "expire", after: showExpire(expire) },
    ...live.acls.filter((a) => a.type === "token" && a.ugid === key).map((a) => ({ field: "ACL entry granted again", after: describe(a) })),
  ];
  return {
    action: "object-update",
    severity: "secret-reset",
    summary:
      `reset the secret of API token ${key}: the token exists but its secretFile ${file} ${why}, so its secret is lost; ` +
      "the token is deleted and created anew with a new secret written to that file (its privsep, expire, comment and ACL entries kept). " +
      "The old secret stops working: every consumer must be given the new one",
    changes,
    calls: [
      { ...tokenCall("DELETE", d.user, d.name), intent: { ...intent("object-delete"), regrantsAcl: true } },
      { ...tokenCreateCall(d.user, d.name, params, { file }), intent: intent("object-create") },
      ...grants,
    ],
  };
}

/**
 * The token kind, with a secret reset for each existing token whose secretFile holds no secret
 * (`files`: what each file holds, read by the engine), and a warning for one whose file holds
 * something pvectl cannot judge (it is left alone).
 */
export function withSecretReset(
  kind: CommentedKind<DesiredToken, LiveToken>,
  files: ReadonlyMap<string, SecretFileState>,
  desired: DesiredAccess,
  live: LiveAccess,
): CommentedKind<DesiredToken, LiveToken> {
  const stateOf = (d: DesiredToken) => (d.secretFile === undefined ? undefined : files.get(d.secretFile));
  return {
    ...kind,
    replace: (d, l) => {
      const state = stateOf(d);
      if (state?.holds !== "nothing" || d.secretFile === undefined) return undefined;
      return secretResetStep(d, l, d.secretFile, state.why, desired, live);
    },
    warnings: (d, l) => {
      const state = stateOf(d);
      if (l === undefined || state?.holds !== "unknown") return [];
      return [
        `secretFile ${d.secretFile} ${state.why}: pvectl cannot tell whether it holds the token's secret and leaves the token alone (if its secret is lost, empty the file: the next plan resets it, with --allow-secret-reset)`,
      ];
    },
  };
}
