// ACL entries: one per path, subject and role. A listed entry is created or has its propagate
// flag set; an unlisted entry is deleted only when its subject is pvectl's (a user, group or
// token with the marker), since an entry has no comment of its own. Removing one can stop
// automation: service-impact.
import type { StepDraft } from "../../plan/types.js";
import { BUILTIN_ROLES } from "../../pve/index.js";
import { aclKey, type DesiredAccess, type DesiredAcl, type LiveAccess, type LiveAcl, tokenKey } from "./model.js";
import { type KindPlans, objectPlan } from "./plan-commented.js";
import { accessStep, aclCall } from "./steps.js";

/** The privileges role `id` has once the plan ran (the spec's when it lists the role). */
export function rolePrivileges(id: string, desired: DesiredAccess, live: LiveAccess): string[] | undefined {
  const spec = desired.roles?.find((r) => r.id === id && !r.absent);
  if (spec) return spec.privileges;
  if (desired.roles?.some((r) => r.id === id && r.absent)) return undefined;
  return BUILTIN_ROLES[id] || live.roles.some((r) => r.id === id) ? livePrivileges(id, live) : undefined;
}

/** The privileges role `id` has now. */
function livePrivileges(id: string, live: LiveAccess): string[] {
  return BUILTIN_ROLES[id] ? [...BUILTIN_ROLES[id]] : (live.roles.find((r) => r.id === id)?.privileges ?? []);
}

const describe = (a: { path: string; type: string; ugid: string; role: string }) => `${a.role} on ${a.path} for ${a.type} ${a.ugid}`;

/**
 * Whether an object exists once the plan ran: the spec lists it, or it exists live and the plan
 * does not remove it (pvectl's, unlisted, in a list the spec manages).
 */
function survives<L extends { marked: boolean }>(listed: boolean, managed: boolean, live: L | undefined): boolean {
  if (listed) return true;
  return live !== undefined && !(managed && live.marked);
}

/** Why the subject of `acl` will not exist after the plan ran, if it will not. */
function missingSubject(acl: DesiredAcl, desired: DesiredAccess, live: LiveAccess): string | undefined {
  const why = (noun: string, list: string) => `${noun} ${acl.ugid} will not exist: the spec's access.${list} neither lists it nor keeps it`;
  if (acl.type === "group") {
    const known = survives(
      desired.groups?.some((g) => g.id === acl.ugid) ?? false,
      desired.groups !== undefined,
      live.groups.find((g) => g.id === acl.ugid),
    );
    return known ? undefined : why("group", "groups");
  }
  if (acl.type === "user") {
    const known = survives(
      desired.users?.some((u) => u.id === acl.ugid) ?? false,
      desired.users !== undefined,
      live.users.find((u) => u.id === acl.ugid),
    );
    return known ? undefined : why("user", "users");
  }
  const known = survives(
    desired.tokens?.some((t) => tokenKey(t) === acl.ugid) ?? false,
    desired.tokens !== undefined,
    live.tokens.find((t) => tokenKey(t) === acl.ugid),
  );
  return known ? undefined : why("token", "tokens");
}

function aclProblems(acl: DesiredAcl, desired: DesiredAccess, live: LiveAccess): string[] {
  const at = acl.where ? ` (${acl.where})` : "";
  const problems: string[] = [];
  if (rolePrivileges(acl.role, desired, live) === undefined) {
    problems.push(
      `ACL entry ${describe(acl)}${at}: role ${acl.role} does not exist (or the spec deletes it); list it under access.roles or name another role`,
    );
  }
  const subject = missingSubject(acl, desired, live);
  if (subject) problems.push(`ACL entry ${describe(acl)}${at}: ${subject}`);
  return problems;
}

function createOrSet(acl: DesiredAcl, exists: boolean, grants: string[]): StepDraft {
  const op = exists ? "object-update" : "object-create";
  const summary = exists
    ? `set propagate=${acl.propagate} on ACL entry ${describe(acl)}`
    : `grant ${describe(acl)}${acl.propagate ? " (propagating)" : ""}`;
  const changes = exists
    ? [{ field: "propagate", before: String(!acl.propagate), after: String(acl.propagate) }]
    : [{ field: "role", after: acl.role }];
  return accessStep("access-acl", op, aclKey(acl), summary, changes, aclCall(acl, false), { grants });
}

function removal(acl: LiveAcl, grants: string[]): StepDraft {
  return accessStep(
    "access-acl",
    "object-delete",
    aclKey(acl),
    `remove ACL entry ${describe(acl)} (its subject is pvectl's; the entry is no longer in the spec): what it granted stops working`,
    [],
    aclCall(acl, true),
    { severity: "service-impact", grants },
  );
}

/** Whether the subject of a live entry carries pvectl's marker. */
function subjectMarked(acl: LiveAcl, live: LiveAccess): boolean {
  if (acl.type === "user") return live.users.some((u) => u.id === acl.ugid && u.marked);
  if (acl.type === "group") return live.groups.some((g) => g.id === acl.ugid && g.marked);
  return live.tokens.some((t) => tokenKey(t) === acl.ugid && t.marked);
}

export function planAcls(desired: DesiredAccess, live: LiveAccess): KindPlans {
  const out: KindPlans = { objects: [], refused: [] };
  if (desired.acls === undefined) return out;
  const byKey = new Map(live.acls.map((a) => [aclKey(a), a]));
  for (const acl of desired.acls) {
    const key = aclKey(acl);
    const current = byKey.get(key);
    const errors = aclProblems(acl, desired, live);
    const grants = rolePrivileges(acl.role, desired, live) ?? [];
    const unchanged = current !== undefined && current.propagate === acl.propagate;
    const steps = errors.length > 0 || unchanged ? [] : [createOrSet(acl, current !== undefined, grants)];
    out.objects.push(objectPlan("access-acl", key, current !== undefined, steps, { phase: "before-guests", errors }));
  }
  const wanted = new Set(desired.acls.map(aclKey));
  for (const acl of live.acls) {
    const key = aclKey(acl);
    if (wanted.has(key)) continue;
    if (subjectMarked(acl, live)) out.objects.push(objectPlan("access-acl", key, true, [removal(acl, livePrivileges(acl.role, live))]));
    else out.objects.push(objectPlan("access-acl", key, true, [], { foreign: true }));
  }
  return out;
}
