// `pvectl access needs`: the privileges every operation pvectl offers on a spec's guests can
// need, by what the spec uses rather than by today's plan. The calls come from the guest kinds
// (resources/operation-calls.ts) and the privileges from callNeeds, the function preflight
// uses: what this reports and what preflight demands cannot drift apart. Paths are then scoped
// as PVE resolves them: a guest of a pool is reached through /pool/<pool>.
import type { ApiCall, PrivilegeNeed } from "../plan/types.js";
import type { DesiredGuest } from "../resources/index.js";
import type { DesiredObjects } from "../resources/objects.js";
import { guestOperationCalls } from "../resources/operation-calls.js";
import { cloneSourceOf } from "./access-clone-source.js";
import { objectNeeds } from "./access-object-needs.js";
import { callNeeds } from "./privileges.js";
import { readNeeds } from "./read-needs.js";

/** One privilege on one path, with who needs it and for what. */
export interface PathPrivilege {
  privilege: string;
  /** Any of these would do (PVE's `any` checks); `privilege` is the one a role should hold. */
  anyOf?: string[];
  /** Operations that need it (create, change, power, destroy, snapshot, backup, read ...). */
  operations: string[];
  /** Spec guests (or backup jobs) that need it. */
  users: string[];
}

/** Every privilege needed on one ACL path. */
export interface PathNeeds {
  path: string;
  privileges: PathPrivilege[];
}

export interface AccessNeeds {
  paths: PathNeeds[];
  /** What the operator should know: guests outside pools, unknown clone sources, broad paths. */
  notes: string[];
  /** Privileges the check compares against, before scoping (each with the alternatives PVE accepts). */
  checks: ScopedNeed[];
}

export interface NeedsOptions {
  snapshots?: boolean;
  backupStorages?: string[];
}

/** A need as scoped for the ACL: its path is where a grant should go; `alternatives`: other paths PVE also accepts. */
export interface ScopedNeed extends PrivilegeNeed {
  operation: string;
  user: string;
}

/** `/vms/<id>` of a guest allocated at apply, said as `{vmid}` (a clone's target: `{newid}`) in paths or 0 where a number was needed. */
const UNKNOWN_GUEST = /^\/vms\/(?:\{vmid\}|\{newid\}|0)$/;
const GUEST_PATH = /^\/vms\/(\d+)$/;

interface Scope {
  /** vmid -> pool of the spec's guests that name one. */
  pools: Map<number, string>;
  /** The pool of the guest being scoped (covers its not-yet-known vmid). */
  pool?: string;
}

/**
 * Where a grant for `need` goes: a guest of a pool is reached through /pool/<pool> (PVE gives
 * pool members the pool's roles; creates in a pool check the pool first); a guest whose vmid is
 * allocated at apply and is in no pool can only be reached through /vms.
 */
function scopePath(path: string, scope: Scope, operation: string): string {
  if (UNKNOWN_GUEST.test(path)) return scope.pool !== undefined ? `/pool/${scope.pool}` : "/vms";
  const m = GUEST_PATH.exec(path);
  // Joining a pool is checked on the guest before it is a member: that grant stays on the guest.
  if (!m || operation === "pool") return path;
  const pool = scope.pools.get(Number(m[1]));
  return pool !== undefined ? `/pool/${pool}` : path;
}

function scoped(needs: PrivilegeNeed[], scope: Scope, operation: string, user: string): ScopedNeed[] {
  return needs.map((need) => {
    const path = scopePath(need.path, scope, operation);
    const orOn = [...(need.orOn ?? [])];
    if (path !== need.path && !UNKNOWN_GUEST.test(need.path)) orOn.push({ path: need.path, privilege: need.privilege });
    return { ...need, path, ...(orOn.length > 0 ? { orOn } : {}), operation, user };
  });
}

/**
 * Moving an existing guest into its pool is checked on the guest before it is a member
 * (VM.Allocate on /vms/<vmid>): a grant that would reach the guest forever, for a move made
 * once. Guests created by pvectl are created in their pool, so only the pool's own privilege is
 * listed; the note says what a move of an older guest needs.
 */
function poolJoinNeeds(guest: DesiredGuest, needs: ScopedNeed[], notes: string[]): ScopedNeed[] {
  const onGuest = needs.filter((n) => GUEST_PATH.test(n.path) || UNKNOWN_GUEST.test(n.path));
  if (onGuest.length > 0) {
    const where = guest.vmid !== undefined ? `/vms/${guest.vmid}` : "the guest";
    notes.push(
      `moving a guest that already exists outside its pool into it (pool: on ${guest.key}) also needs VM.Allocate on ${where} until it is a member: not granted here; have an administrator move it, or grant that once`,
    );
  }
  return needs.filter((n) => !onGuest.includes(n));
}

function needsOfCalls(calls: ApiCall[]): PrivilegeNeed[] {
  return calls.flatMap((c) => callNeeds(c));
}

function guestNeeds(guest: DesiredGuest, all: DesiredGuest[], options: NeedsOptions, scope: Scope, notes: string[]): ScopedNeed[] {
  const pool = "pool" in guest && guest.pool ? guest.pool : undefined;
  const own: Scope = { ...scope, ...(pool !== undefined ? { pool } : {}) };
  const source = guest.clone !== undefined ? cloneSourceOf(guest, all, notes) : undefined;
  const operations = guestOperationCalls(guest, {
    ...(options.snapshots ? { snapshots: true } : {}),
    ...(options.backupStorages ? { backupStorages: options.backupStorages } : {}),
    ...(source !== undefined ? { cloneSource: source } : {}),
  });
  const out: ScopedNeed[] = [];
  // A guest the spec wants absent is only stopped and destroyed.
  const wanted = guest.absent ? operations.filter((op) => op.operation === "power" || op.operation === "destroy") : operations;
  for (const { operation, calls } of wanted) {
    const needs = scoped(needsOfCalls(calls), own, operation, guest.key);
    out.push(...(operation === "pool" ? poolJoinNeeds(guest, needs, notes) : needs));
  }
  out.push(...scoped(readNeeds(guest, source), own, "read", guest.key));
  if ("pool" in guest && guest.pool === "" && !guest.absent) {
    notes.push(
      `pool: "" on ${guest.key}: taking it out of the pool it is in needs Pool.Allocate on /pool/<that pool>, which the spec does not name; \`access check\` looks it up, preflight asks for it`,
    );
  }
  return out;
}

/** A need's alternatives, when it has more than one. */
function alternativesOf(need: { anyOf?: string[] }): string[] | undefined {
  return need.anyOf && need.anyOf.length > 1 ? need.anyOf : undefined;
}

/** Groups needs per path, then per privilege and set of alternatives, sorted, so the output and a generated role are stable. */
function group(needs: ScopedNeed[]): PathNeeds[] {
  const byPath = new Map<string, Map<string, PathPrivilege>>();
  for (const need of needs) {
    const privileges = byPath.get(need.path) ?? new Map<string, PathPrivilege>();
    byPath.set(need.path, privileges);
    const anyOf = alternativesOf(need);
    // Needs with other alternatives are other requirements (a cloud-init drive: Cloudinit or
    // CDROM; a cloud-init key: Cloudinit or Network): kept apart until coverage is decided.
    const key = `${need.privilege}|${(anyOf ?? []).join(",")}`;
    const entry = privileges.get(key) ?? { privilege: need.privilege, ...(anyOf ? { anyOf } : {}), operations: [], users: [] };
    privileges.set(key, entry);
    if (!entry.operations.includes(need.operation)) entry.operations.push(need.operation);
    if (!entry.users.includes(need.user)) entry.users.push(need.user);
  }
  return [...byPath.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, privileges]) => ({
      path,
      privileges: mergeByPrivilege(withoutCovered([...privileges.values()]))
        .sort((a, b) => a.privilege.localeCompare(b.privilege))
        .map((p) => ({ ...p, operations: p.operations.sort(), users: p.users.sort() })),
    }));
}

/**
 * An `any` need (PUT config: any VM.Config.* privilege) is met by a privilege the same path
 * needs exactly: it is left out, so the role does not grow by a privilege nothing else needs.
 */
function withoutCovered(privileges: PathPrivilege[]): PathPrivilege[] {
  const exact = new Set(privileges.filter((p) => p.anyOf === undefined).map((p) => p.privilege));
  return privileges.filter((p) => p.anyOf === undefined || !p.anyOf.some((alt) => exact.has(alt)));
}

/** One line per privilege: required exactly when any remaining need requires it exactly. */
function mergeByPrivilege(privileges: PathPrivilege[]): PathPrivilege[] {
  const out = new Map<string, PathPrivilege>();
  for (const p of privileges) {
    const seen = out.get(p.privilege);
    if (seen === undefined) {
      out.set(p.privilege, { ...p, operations: [...p.operations], users: [...p.users] });
      continue;
    }
    if (p.anyOf === undefined) delete seen.anyOf;
    for (const o of p.operations) if (!seen.operations.includes(o)) seen.operations.push(o);
    for (const u of p.users) if (!seen.users.includes(u)) seen.users.push(u);
  }
  return [...out.values()];
}

/** How a source other than spec files narrows the derivation (a NetBox config: access-netbox.ts). */
export interface NeedsSource {
  /** The notes on guests without pool or vmid speak of spec keys; a source without them says its own. */
  scopeNotes?: boolean;
  /** Paths the source cannot name (a storage only NetBox's records say): left out, the source says so. */
  skipPath?: (path: string) => boolean;
}

/** The privileges the spec's guests and cluster objects (backup jobs ...) can need, per ACL path. */
export function accessNeeds(
  guests: DesiredGuest[],
  objects: DesiredObjects | undefined,
  options: NeedsOptions = {},
  source: NeedsSource = {},
): AccessNeeds {
  const notes: string[] = [];
  const pools = new Map<number, string>();
  for (const g of guests) if (g.vmid !== undefined && "pool" in g && g.pool) pools.set(g.vmid, g.pool);
  const derived = guests.flatMap((g) => guestNeeds(g, guests, options, { pools }, notes));
  const skip = source.skipPath;
  const checks = skip === undefined ? derived : derived.filter((n) => !skip(n.path));
  if (objects !== undefined) checks.push(...objectNeeds(objects));
  if (source.scopeNotes === false) return { paths: group(checks), notes: [...new Set(notes)], checks };
  const outside = guests.filter((g) => !("pool" in g && g.pool));
  if (outside.length > 0) {
    const named = outside.map((g) => g.key).join(", ");
    notes.push(
      `not in a pool: ${named}. Each is granted on its own /vms/<vmid>; a pool per team (pool: NAME on each guest) needs one ACL on /pool/NAME instead, and keeps the token off every other guest`,
    );
  }
  const unknown = guests.filter((g) => g.vmid === undefined && !("pool" in g && g.pool));
  if (unknown.length > 0) {
    notes.push(
      `no vmid and no pool: ${unknown.map((g) => g.key).join(", ")}. Its vmid is allocated at apply, so the token needs these privileges on /vms (every guest of the cluster); give it a vmid or a pool to narrow that`,
    );
  }
  return { paths: group(checks), notes: [...new Set(notes)], checks };
}
