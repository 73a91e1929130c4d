// The commented access kinds (groups, users, tokens, pools): their calls and field diffs for
// plan-commented.ts. Removing a group, user or token can stop automation that authenticates
// with it: service-impact, run only with --allow-restart (as backup job deletion).
import type { ParamValue, SecretSink } from "../../plan/types.js";
import { markedComment } from "../object-marker.js";
import type { DesiredGroup, DesiredPool, DesiredToken, DesiredUser, LiveGroup, LivePool, LiveToken, LiveUser } from "./model.js";
import { tokenKey } from "./model.js";
import { endpointCall } from "../../plan/call.js";
import type { CommentedKind } from "./plan-commented.js";
import { compareField, emptyDiff } from "./plan-commented.js";
import { accessStep, groupCall, tokenCreateCall, tokenCall, userCall } from "./steps.js";

/** `2027-06-30` for an expiry in seconds, `never` for 0. */
export function showExpire(value: ParamValue): string {
  const n = Number(value);
  return n === 0 ? "never" : new Date(n * 1000).toISOString().slice(0, 10);
}

const bool = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
const showBool = (value: ParamValue) => (Number(value) === 1 ? "true" : "false");

function withComment(params: Record<string, ParamValue>, comment: string | undefined): Record<string, ParamValue> {
  return { ...params, comment: markedComment(comment) };
}

function updateSummary(noun: string, id: string, adopting: boolean): string {
  return adopting ? `adopt ${noun} ${id} (pvectl's marker added to its comment)` : `update ${noun} ${id}`;
}

export const GROUP_KIND: CommentedKind<DesiredGroup, LiveGroup> = {
  kind: "access-group",
  noun: "group",
  desiredKey: (d) => d.id,
  liveKey: (l) => l.id,
  create: (d) =>
    accessStep(
      "access-group",
      "object-create",
      d.id,
      `create group ${d.id}`,
      d.comment ? [{ field: "comment", after: d.comment }] : [],
      endpointCall("POST", "/access/groups", {}, withComment({ groupid: d.id }, d.comment)),
    ),
  diff: () => emptyDiff(),
  update: (d, _l, diff, adopting) =>
    accessStep(
      "access-group",
      "object-update",
      d.id,
      updateSummary("group", d.id, adopting),
      diff.changes,
      groupCall("PUT", d.id, diff.params),
    ),
  delete: (l) =>
    accessStep(
      "access-group",
      "object-delete",
      l.id,
      `delete group ${l.id} (pvectl's, no longer in the spec): its members lose what its ACL entries granted`,
      [],
      groupCall("DELETE", l.id),
      { severity: "service-impact" },
    ),
};

export const USER_KIND: CommentedKind<DesiredUser, LiveUser> = {
  kind: "access-user",
  noun: "user",
  desiredKey: (d) => d.id,
  liveKey: (l) => l.id,
  create: (d) => {
    const params: Record<string, ParamValue> = { userid: d.id };
    const changes = [];
    if (d.groups !== undefined && d.groups.length > 0) {
      params.groups = d.groups.join(",");
      changes.push({ field: "groups", after: d.groups.join(",") });
    }
    if (d.enable !== undefined) params.enable = d.enable ? 1 : 0;
    if (d.expire !== undefined) {
      params.expire = d.expire;
      changes.push({ field: "expire", after: showExpire(d.expire) });
    }
    if (d.comment) changes.push({ field: "comment", after: d.comment });
    return accessStep(
      "access-user",
      "object-create",
      d.id,
      `create user ${d.id} (no password: it signs in with its API tokens)`,
      changes,
      endpointCall("POST", "/access/users", {}, withComment(params, d.comment)),
    );
  },
  diff: (d, l) => {
    const diff = emptyDiff();
    compareField(diff, "groups", "groups", d.groups?.join(","), l.groups.join(","), (v) => String(v) || "(none)");
    compareField(diff, "enable", "enable", bool(d.enable), l.enable ? 1 : 0, showBool);
    compareField(diff, "expire", "expire", d.expire, l.expire, showExpire);
    return diff;
  },
  update: (d, _l, diff, adopting) =>
    accessStep(
      "access-user",
      "object-update",
      d.id,
      updateSummary("user", d.id, adopting),
      diff.changes,
      userCall("PUT", d.id, diff.params),
    ),
  delete: (l) =>
    accessStep(
      "access-user",
      "object-delete",
      l.id,
      `delete user ${l.id} (pvectl's, no longer in the spec): its API tokens and ACL entries go with it, automation using them stops working`,
      [],
      userCall("DELETE", l.id),
      { severity: "service-impact" },
    ),
};

/** The token kind; `showSecret`: a new token's secret may be printed (`--show-secret`) when it has no secretFile. */
export function tokenKind(showSecret: boolean): CommentedKind<DesiredToken, LiveToken> {
  const sink = (d: DesiredToken): SecretSink | undefined =>
    d.secretFile !== undefined ? { file: d.secretFile } : showSecret ? { print: true } : undefined;
  return {
    kind: "access-token",
    noun: "token",
    desiredKey: tokenKey,
    liveKey: tokenKey,
    problems: (d, l) => {
      if (l !== undefined || sink(d) !== undefined) return [];
      const at = d.where ? ` (${d.where})` : "";
      return [
        `token ${tokenKey(d)}${at}: PVE shows a new token's secret only once and the spec says nowhere to put it; add \`secretFile: <path>\` to the entry, or apply with --show-secret to have it printed once`,
      ];
    },
    create: (d) => {
      const params: Record<string, ParamValue> = { privsep: d.privsep ? 1 : 0 };
      if (d.expire !== undefined) params.expire = d.expire;
      const where = d.secretFile !== undefined ? `its secret is written to ${d.secretFile} (mode 0600)` : "its secret is printed once";
      const changes = [{ field: "privsep", after: String(d.privsep) }];
      if (d.expire !== undefined) changes.push({ field: "expire", after: showExpire(d.expire) });
      if (d.comment) changes.push({ field: "comment", after: d.comment });
      return accessStep(
        "access-token",
        "object-create",
        tokenKey(d),
        `create API token ${tokenKey(d)}: ${where}`,
        changes,
        tokenCreateCall(d.user, d.name, withComment(params, d.comment), sink(d)!),
      );
    },
    diff: (d, l) => {
      const diff = emptyDiff();
      compareField(diff, "privsep", "privsep", d.privsep ? 1 : 0, l.privsep ? 1 : 0, showBool);
      compareField(diff, "expire", "expire", d.expire, l.expire, showExpire);
      return diff;
    },
    update: (d, _l, diff, adopting) =>
      accessStep(
        "access-token",
        "object-update",
        tokenKey(d),
        updateSummary("API token", tokenKey(d), adopting),
        diff.changes,
        tokenCall("PUT", d.user, d.name, diff.params),
      ),
    delete: (l) =>
      accessStep(
        "access-token",
        "object-delete",
        tokenKey(l),
        `delete API token ${tokenKey(l)} (pvectl's, no longer in the spec): whatever authenticates with it stops working; its ACL entries go with it`,
        [],
        tokenCall("DELETE", l.user, l.name),
        { severity: "service-impact" },
      ),
  };
}

/** The pool kind; `inUse`: pools the plan's guests join, kept like pools that have members. */
export const poolKind = (inUse: string[]): CommentedKind<DesiredPool, LivePool> => ({
  kind: "access-pool",
  noun: "pool",
  desiredKey: (d) => d.id,
  liveKey: (l) => l.id,
  create: (d) =>
    accessStep(
      "access-pool",
      "object-create",
      d.id,
      `create pool ${d.id}`,
      d.comment ? [{ field: "comment", after: d.comment }] : [],
      endpointCall("POST", "/pools", {}, withComment({ poolid: d.id }, d.comment)),
    ),
  diff: () => emptyDiff(),
  update: (d, _l, diff, adopting) =>
    accessStep(
      "access-pool",
      "object-update",
      d.id,
      updateSummary("pool", d.id, adopting),
      diff.changes,
      endpointCall("PUT", "/pools", {}, { poolid: d.id, ...diff.params }),
    ),
  keep: (l) => {
    if (inUse.includes(l.id))
      return `pool ${l.id} is pvectl's and no longer in access.pools, but guests of this spec join it: it is kept (list it under access.pools)`;
    if (l.members === 0) return undefined;
    return `pool ${l.id} is pvectl's and no longer in the spec, but still holds ${l.members} member(s): it is deleted once empty (members come from guests' \`pool:\`)`;
  },
  delete: (l) =>
    accessStep(
      "access-pool",
      "object-delete",
      l.id,
      `delete pool ${l.id} (pvectl's, empty, no longer in the spec)`,
      [],
      endpointCall("DELETE", "/pools", {}, { poolid: l.id }),
    ),
});
