// `pvectl access needs` and `pvectl access check`: what a spec's operations need, and what a
// given token (or user) lacks of it. `needs` reads no cluster; `check` reads the other
// identity's permission dump (GET /access/permissions?userid=), which only that identity's own
// user or someone with Sys.Audit on /access may read.
import { getPermissions } from "../api/endpoints/index.js";
import { type PveClient, PveError } from "../api/index.js";
import { type AccessNeeds, accessNeeds, type NeedsOptions, type ScopedNeed } from "../engine/access-needs.js";
import { missingPrivileges } from "../engine/privileges.js";
import { authIdProblem } from "../pve/auth-id.js";
import { UsageProblem } from "../util/errors.js";
import type { DesiredGuest } from "../resources/index.js";
import { safeLine } from "../util/safe-text.js";
import { leftPoolNeeds } from "./access-pool-leave.js";
import { desiredObjectsOf, desiredOf, type SpecGuests } from "./plan-spec.js";

export type { AccessNeeds, NeedsOptions } from "../engine/access-needs.js";
export { type AccessSpec, type AclSubject, accessSpec } from "../engine/access-spec.js";

/** The privileges the spec's guests and cluster objects (backup jobs ...) can need, per ACL path (no cluster read). */
export function specAccessNeeds(spec: SpecGuests, options: NeedsOptions = {}): AccessNeeds {
  return accessNeeds(desiredOf(spec), desiredObjectsOf(spec), options);
}

/** One privilege the checked identity lacks, with what needs it. */
export interface MissingPrivilege {
  path: string;
  privilege: string;
  /** Any of these would do. */
  anyOf?: string[];
  /** Other paths where the privilege would do as well. */
  orOn?: Array<{ path: string; privilege: string }>;
  operations: string[];
  users: string[];
}

export interface AccessCheck {
  /** The token or user checked (`deploy@pve!ci`). */
  subject: string;
  missing: MissingPrivilege[];
  needs: AccessNeeds;
  /** PVE lists no privilege at all: also its answer for a user or token that does not exist. */
  holdsNothing: boolean;
}

/** The running identity may not read the other's permissions. */
export class AccessCheckRefused extends UsageProblem {
  override readonly kind = "permission";
}

/** A user id or a token id as PVE checks them (pve/auth-id.ts): `user@realm` or `user@realm!token`. */
export function checkAuthId(id: string): void {
  const problem = authIdProblem(id);
  if (problem !== undefined) {
    throw new UsageProblem(
      `'${safeLine(id)}' is not a user or token id PVE accepts: ${safeLine(problem)}`,
      "write user@realm for a user or user@realm!tokenname for a token, e.g. deploy@pve!ci",
    );
  }
}

function merge(missing: ScopedNeed[]): MissingPrivilege[] {
  const out = new Map<string, MissingPrivilege>();
  for (const need of missing) {
    const key = `${need.path} ${need.privilege}`;
    const entry = out.get(key) ?? {
      path: need.path,
      privilege: need.privilege,
      ...(need.anyOf && need.anyOf.length > 1 ? { anyOf: need.anyOf } : {}),
      ...(need.orOn && need.orOn.length > 0 ? { orOn: need.orOn } : {}),
      operations: [],
      users: [],
    };
    out.set(key, entry);
    if (!entry.operations.includes(need.operation)) entry.operations.push(need.operation);
    if (!entry.users.includes(need.user)) entry.users.push(need.user);
  }
  return [...out.values()].sort((a, b) => a.path.localeCompare(b.path) || a.privilege.localeCompare(b.privilege));
}

/** What `subject` lacks of the spec's needs, read from its permission dump as the running identity may see it. */
export async function checkAccess(client: PveClient, spec: SpecGuests, subject: string, options: NeedsOptions = {}): Promise<AccessCheck> {
  checkAuthId(subject);
  return checkNeeds(client, specAccessNeeds(spec, options), desiredOf(spec), subject);
}

/** What `subject` lacks of `needs`, derived from the guests `desired` (a spec's, a NetBox config's). */
export async function checkNeeds(client: PveClient, needs: AccessNeeds, desired: DesiredGuest[], subject: string): Promise<AccessCheck> {
  checkAuthId(subject);
  let dump: Awaited<ReturnType<typeof getPermissions>>;
  try {
    dump = await getPermissions(client, { userid: subject });
  } catch (err) {
    if (err instanceof PveError && err.status === 403) {
      throw new AccessCheckRefused(
        `${client.identity} may not read the permissions of ${subject}: PVE answered ${err.pveMessage ?? "403 Permission check failed"}`,
        `run the check as ${subject.split("!")[0]} (its own tokens), or as a user or token with Sys.Audit on /access (root@pam, an admin)`,
      );
    }
    throw err;
  }
  // Guests that would leave the pool they are in today need Pool.Allocate there (no spec says which).
  needs.checks.push(...(await leftPoolNeeds(client, desired)));
  const keyed = needs.checks.map((n, i) => ({ ...n, stepId: String(i) }));
  const missing = missingPrivileges(dump, keyed, subject).map((n) => needs.checks[Number(n.stepId)]!);
  return { subject, missing: merge(missing), needs, holdsNothing: Object.keys(dump).length === 0 };
}
