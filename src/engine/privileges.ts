// The privileges a step needs. The endpoint's own check comes from the schema
// (`permissions.check`); create and config updates check more, per key and value, inside
// PVE's handler: the guest kind lists those (resources/<kind>/privileges.ts), by the call's
// intent.

import type { ApiCall, PrivilegeNeed, RequiredPrivilege, Step } from "../plan/types.js";
import { archiveCallNeeds, GUEST_KINDS } from "../resources/index.js";
import { objectCallNeeds } from "../resources/objects.js";
import { isAllocatedVmid } from "../plan/call.js";
import { plannedParams } from "../plan/resolve-call.js";
import { getEndpoint } from "../schema/index.js";

/** PVE fails a `perm` check with `require_param` when that parameter is not given: such an alternative cannot be the one that passes. */
function applies(check: unknown[], params: Record<string, string>): boolean {
  const [op, , , mode, param] = check as [string, unknown, unknown, string?, string?];
  return !(op === "perm" && mode === "require_param" && param !== undefined && params[param] === undefined);
}

/** Evaluates the schema's `check` expression into the privileges it demands. */
function checkNeeds(check: unknown[], params: Record<string, string>): PrivilegeNeed[][] {
  const [op, ...rest] = check as [string, ...unknown[]];
  if (op === "perm") {
    const [template, privs, mode] = rest as [string, string[], string?];
    const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);
    if (mode === "any") return [[{ path, privilege: privs[0]!, anyOf: privs }]];
    return [privs.map((privilege) => ({ path, privilege }))];
  }
  if (op === "and") return [rest.flatMap((c) => checkNeeds(c as unknown[], params).flat())];
  // "or": the first alternative that applies is reported; single-privilege alternatives on other
  // paths are accepted instead (`orOn`), others are left to PVE.
  if (op === "or") {
    const options = rest
      .filter((c) => applies(c as unknown[], params))
      .map((c) => checkNeeds(c as unknown[], params).flat())
      .filter((needs) => needs.length > 0);
    const [first, ...others] = options;
    if (first === undefined) return [];
    const orOn = others.filter((needs) => needs.length === 1).map((needs) => ({ path: needs[0]!.path, privilege: needs[0]!.privilege }));
    if (first.length !== 1 || orOn.length === 0) return [first];
    return [[{ ...first[0]!, orOn }]];
  }
  return [];
}

/** Every privilege one API call of a step needs. */
export function callNeeds(call: ApiCall): PrivilegeNeed[] {
  const endpoint = getEndpoint(call.method, call.endpoint);
  const params: Record<string, string> = {};
  // A vmid apply allocates is `{vmid}` in the privilege paths (/vms/{vmid}), as plan-needs.ts expects.
  for (const [k, v] of Object.entries(call.pathParams)) params[k] = isAllocatedVmid(v) ? `{${k}}` : String(v);
  const body = plannedParams(call);
  for (const [k, v] of Object.entries(body)) params[k] = String(v);
  const vmid = params.vmid ?? "{vmid}";
  const vmPath = `/vms/${vmid}`;
  const needs: PrivilegeNeed[] = [];
  const check = endpoint?.permissions?.check;
  if (check) needs.push(...checkNeeds(check, params).flat());

  const intent = call.intent;
  if (intent.kind === "object") needs.push(...objectCallNeeds(intent, body));
  else if (intent.kind !== "pool") needs.push(...GUEST_KINDS[intent.kind].callNeeds(intent, vmPath));
  needs.push(...archiveCallNeeds(intent, vmPath));
  // A create into a pool is checked on the pool first (qemu-server/pve-container check_vm_perm
  // with the pool): every privilege on the new guest may be held there instead.
  if (intent.op === "create" && intent.pool !== undefined) {
    const pool = `/pool/${intent.pool}`;
    for (const [i, need] of needs.entries()) {
      if (need.path === vmPath)
        needs[i] = {
          ...need,
          orOn: [...(need.orOn ?? []), ...(need.anyOf ?? [need.privilege]).map((privilege) => ({ path: pool, privilege }))],
        };
    }
  }
  // PUT /pools with vms=: PVE also checks each guest (`check_perm_modify` on /vms/<vmid>).
  if (intent.op === "pool-membership") {
    for (const id of intent.vmids)
      needs.push({ path: `/vms/${id}`, privilege: "VM.Allocate", anyOf: ["VM.Allocate", "Permissions.Modify"] });
    // A move takes the guest out of its pool: PVE (Pool.pm update_pool) checks Pool.Allocate there.
    if (intent.from !== undefined) needs.push({ path: `/pool/${intent.from}`, privilege: "Pool.Allocate" });
  }
  return needs;
}

/** Required privileges of every step, de-duplicated per (path, privilege, whom PVE waives it for). */
export function stepNeeds(steps: Step[]): RequiredPrivilege[] {
  const seen = new Set<string>();
  const out: RequiredPrivilege[] = [];
  for (const step of steps) {
    for (const call of step.calls) {
      for (const need of callNeeds(call)) {
        // A waived need is a different need: a token of another user must still be checked; so
        // is one with other alternatives (PUT config's "any VM.Config.*" is met by Options, a
        // disk the same plan adds needs VM.Config.Disk itself).
        const key = `${need.path} ${need.privilege} ${JSON.stringify(need.anyOf ?? [])} ${need.unlessCaller ?? ""}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ ...need, stepId: step.id });
      }
    }
  }
  return out;
}

/** GET /access/permissions: path -> privilege -> 1 when it propagates to paths below. */
export type PermissionDump = Record<string, Record<string, number>>;

/**
 * Whether the dump grants `privilege` on `path`: the path's own entry when listed, else the
 * nearest listed ancestor's propagating privileges.
 */
export function granted(dump: PermissionDump, path: string, privilege: string): boolean {
  const own = dump[path];
  if (own) return privilege in own;
  const parts = path.split("/").filter((p) => p !== "");
  for (let i = parts.length - 1; i >= 0; i--) {
    const ancestor = `/${parts.slice(0, i).join("/")}`;
    const entry = dump[ancestor];
    if (entry) return entry[privilege] === 1;
  }
  return false;
}

/** `caller`: the user or token id the dump belongs to (needs PVE waives for it are met). */
export function missingPrivileges(dump: PermissionDump, needs: RequiredPrivilege[], caller?: string): RequiredPrivilege[] {
  return needs.filter(
    (n) =>
      (n.unlessCaller === undefined || n.unlessCaller !== caller) &&
      !(n.anyOf ?? [n.privilege]).some((p) => granted(dump, n.path, p)) &&
      !(n.orOn ?? []).some((o) => granted(dump, o.path, o.privilege)),
  );
}
