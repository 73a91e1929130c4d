// Custom roles. A role has no comment, so PVE cannot record that pvectl made it: a listed role
// is created when missing; an existing one whose privileges differ is changed only when its
// entry says `adopt: true` (a spec must not silently widen a role others hold); a role is
// deleted only when its entry says `state: absent`, and never while an ACL entry the plan
// keeps still uses it. Unlisted custom roles are listed as not managed.
import { BUILTIN_ROLES } from "../../pve/index.js";
import type { DesiredAccess, DesiredRole, LiveAccess, LiveRole } from "./model.js";
import { aclKey } from "./model.js";
import { type KindPlans, objectPlan } from "./plan-commented.js";
import { accessStep, roleCall } from "./steps.js";
import { endpointCall } from "../../plan/call.js";

const privs = (list: string[]) => list.join(",");

function changeOf(role: DesiredRole, live: LiveRole) {
  const added = role.privileges.filter((p) => !live.privileges.includes(p));
  const removed = live.privileges.filter((p) => !role.privileges.includes(p));
  return [
    ...added.map((p) => ({ field: p, after: "granted" })),
    ...removed.map((p) => ({ field: p, before: "granted", after: "removed" })),
  ];
}

function adoptionMessage(role: DesiredRole): string {
  const at = role.where ? ` (${role.where})` : "";
  return `role ${role.id}${at} exists with other privileges, and roles carry no marker, so pvectl cannot tell it made it; add \`adopt: true\` to its spec entry to set its privileges to the spec's (everyone it is granted to gets them)`;
}

/** Deleting `role`: refused while live entries the plan does not remove use it. */
function planDelete(role: DesiredRole, deletedAcls: Set<string>, live: LiveAccess, out: KindPlans): void {
  const users = live.acls.filter((a) => a.role === role.id);
  const kept = users.filter((a) => !deletedAcls.has(aclKey(a)));
  if (kept.length > 0) {
    const paths = [...new Set(kept.map((a) => a.path))].sort().join(", ");
    const at = role.where ? ` (${role.where})` : "";
    const error = `role ${role.id}${at} is still used by ACL entries on ${paths}: remove those entries first (from the spec's access.acls, or by hand), then delete the role`;
    out.objects.push(objectPlan("access-role", role.id, true, [], { errors: [error] }));
    return;
  }
  // Removed together with the entries that use it: as disruptive as their removal.
  const severity = users.length > 0 ? "service-impact" : "configuration";
  const step = accessStep(
    "access-role",
    "object-delete",
    role.id,
    `delete role ${role.id} (state: absent)`,
    [],
    roleCall("DELETE", role.id),
    { severity },
  );
  out.objects.push(objectPlan("access-role", role.id, true, [step]));
}

function planRole(role: DesiredRole, current: LiveRole | undefined, adoptAll: boolean, out: KindPlans): void {
  if (current === undefined) {
    const changes = role.privileges.map((p) => ({ field: p, after: "granted" }));
    const step = accessStep(
      "access-role",
      "object-create",
      role.id,
      `create role ${role.id}`,
      changes,
      endpointCall("POST", "/access/roles", {}, { roleid: role.id, privs: privs(role.privileges) }),
    );
    out.objects.push(objectPlan("access-role", role.id, false, [step], { phase: "before-guests" }));
    return;
  }
  const changes = changeOf(role, current);
  if (changes.length === 0) {
    out.objects.push(objectPlan("access-role", role.id, true, []));
    return;
  }
  if (!role.adopt && !adoptAll) {
    const message = adoptionMessage(role);
    out.objects.push(objectPlan("access-role", role.id, true, [], { errors: [`left alone: ${message}`] }));
    out.refused.push({ key: role.id, message });
    return;
  }
  const step = accessStep(
    "access-role",
    "object-update",
    role.id,
    `set the privileges of role ${role.id}`,
    changes,
    roleCall("PUT", role.id, { privs: privs(role.privileges) }),
  );
  out.objects.push(objectPlan("access-role", role.id, true, [step], { phase: "before-guests" }));
}

export function planRoles(desired: DesiredAccess, live: LiveAccess, deletedAcls: Set<string>, adoptAll: boolean): KindPlans {
  const out: KindPlans = { objects: [], refused: [] };
  if (desired.roles === undefined) return out;
  const byId = new Map(live.roles.filter((r) => !r.builtin && !BUILTIN_ROLES[r.id]).map((r) => [r.id, r]));
  for (const role of desired.roles) {
    const current = byId.get(role.id);
    if (role.absent) {
      if (current !== undefined) planDelete(role, deletedAcls, live, out);
      else out.objects.push(objectPlan("access-role", role.id, false, []));
    } else planRole(role, current, adoptAll, out);
  }
  const listed = new Set(desired.roles.map((r) => r.id));
  for (const id of [...byId.keys()].sort())
    if (!listed.has(id)) out.objects.push(objectPlan("access-role", id, true, [], { foreign: true }));
  return out;
}
