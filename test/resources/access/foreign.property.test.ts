// Property: whatever the cluster holds and whatever the spec says, no step of an access plan
// touches an object that the spec does not list and that is not pvectl's (marker in its
// comment; for an ACL entry, a subject with the marker); a list the spec leaves out yields no
// object at all; only pvectl's objects are ever deleted.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { aclKey, type DesiredAccess, type LiveAccess, type LiveAcl, planAccess, tokenKey } from "../../../src/resources/access/index.js";

const USERS = ["a@pve", "b@pve", "c@pve"];
const GROUPS = ["g1", "g2"];
const ROLES = ["R1", "R2"];
const POOLS = ["p1", "p2"];
const TOKEN_NAMES = ["t1", "t2"];
const PATHS = ["/", "/pool/p1", "/vms/100"];
const PRIVS = ["VM.Audit", "VM.Allocate", "Datastore.Audit"];

const marked = fc.boolean();
const comment = fc.option(fc.constantFrom("x", "y"), { nil: undefined });
const uniqueBy = <T>(arb: fc.Arbitrary<T>, key: (t: T) => string) => fc.uniqueArray(arb, { selector: key, maxLength: 4 });

const subject = fc.oneof(
  fc.record({ type: fc.constant("user" as const), ugid: fc.constantFrom(...USERS) }),
  fc.record({ type: fc.constant("group" as const), ugid: fc.constantFrom(...GROUPS) }),
  fc.record({ type: fc.constant("token" as const), ugid: fc.constantFrom(...USERS.flatMap((u) => TOKEN_NAMES.map((t) => `${u}!${t}`))) }),
);
const aclFields = fc
  .tuple(fc.constantFrom(...PATHS), fc.constantFrom(...ROLES, "PVEAuditor"), subject, fc.boolean())
  .map(([path, role, s, propagate]) => ({ path, role, ...s, propagate }));

const live: fc.Arbitrary<LiveAccess> = fc.record({
  roles: uniqueBy(fc.record({ id: fc.constantFrom(...ROLES), privileges: fc.subarray(PRIVS), builtin: fc.constant(false) }), (r) => r.id),
  groups: uniqueBy(fc.record({ id: fc.constantFrom(...GROUPS), marked, comment }), (g) => g.id),
  users: uniqueBy(
    fc.record({
      id: fc.constantFrom(...USERS),
      marked,
      comment,
      enable: fc.boolean(),
      expire: fc.constantFrom(0, 1_800_000_000),
      groups: fc.subarray(GROUPS),
    }),
    (u) => u.id,
  ),
  tokens: uniqueBy(
    fc.record({
      user: fc.constantFrom(...USERS),
      name: fc.constantFrom(...TOKEN_NAMES),
      marked,
      comment,
      privsep: fc.boolean(),
      expire: fc.constant(0),
    }),
    tokenKey,
  ),
  acls: uniqueBy(aclFields, (a: LiveAcl) => aclKey(a)),
  pools: uniqueBy(fc.record({ id: fc.constantFrom(...POOLS), marked, comment, members: fc.constantFrom(0, 2) }), (p) => p.id),
});

const adopt = fc.boolean();
const maybe = <T>(arb: fc.Arbitrary<T[]>) => fc.option(arb, { nil: undefined });
const desired: fc.Arbitrary<DesiredAccess> = fc.record(
  {
    roles: maybe(
      uniqueBy(fc.record({ id: fc.constantFrom(...ROLES), privileges: fc.subarray(PRIVS), absent: fc.boolean(), adopt }), (r) => r.id),
    ),
    groups: maybe(uniqueBy(fc.record({ id: fc.constantFrom(...GROUPS), comment, adopt }), (g) => g.id)),
    users: maybe(uniqueBy(fc.record({ id: fc.constantFrom(...USERS), enable: fc.boolean(), comment, adopt }), (u) => u.id)),
    tokens: maybe(
      uniqueBy(
        fc.record({
          user: fc.constantFrom(...USERS),
          name: fc.constantFrom(...TOKEN_NAMES),
          privsep: fc.boolean(),
          secretFile: fc.constant("/tmp/x"),
          adopt,
        }),
        tokenKey,
      ),
    ),
    acls: maybe(uniqueBy(aclFields, aclKey)),
    pools: maybe(uniqueBy(fc.record({ id: fc.constantFrom(...POOLS), comment, adopt }), (p) => p.id)),
  },
  { requiredKeys: [] },
);

const LIST_OF = {
  "access-role": "roles",
  "access-group": "groups",
  "access-user": "users",
  "access-token": "tokens",
  "access-acl": "acls",
  "access-pool": "pools",
} as const;

/** The keys the spec lists, per kind. */
function listed(d: DesiredAccess, kind: keyof typeof LIST_OF): Set<string> {
  const list: Array<Record<string, unknown>> = (d[LIST_OF[kind]] as Array<Record<string, unknown>> | undefined) ?? [];
  const key = (e: Record<string, unknown>): string => {
    if (kind === "access-token") return tokenKey(e as { user: string; name: string });
    if (kind === "access-acl") return aclKey(e as Parameters<typeof aclKey>[0]);
    return String(e.id);
  };
  return new Set(list.map(key));
}

/** Whether the live object `key` of `kind` is pvectl's. */
function owned(l: LiveAccess, kind: keyof typeof LIST_OF, key: string): boolean {
  const isMarked = (id: string) =>
    [...l.users, ...l.groups].some((s) => s.id === id && s.marked) || l.tokens.some((t) => tokenKey(t) === id && t.marked);
  switch (kind) {
    case "access-group":
      return l.groups.some((g) => g.id === key && g.marked);
    case "access-user":
      return l.users.some((u) => u.id === key && u.marked);
    case "access-token":
      return l.tokens.some((t) => tokenKey(t) === key && t.marked);
    case "access-pool":
      return l.pools.some((p) => p.id === key && p.marked);
    case "access-acl":
      return l.acls.some((a) => aclKey(a) === key && isMarked(a.ugid));
    case "access-role":
      return false;
  }
}

describe("access plans never touch what is neither listed nor pvectl's", () => {
  it("holds for random clusters and specs", () => {
    fc.assert(
      fc.property(live, desired, fc.boolean(), (l, d, adoptAll) => {
        const { objects } = planAccess(d, l, { adopt: adoptAll });
        for (const object of objects) {
          const kind = object.kind as keyof typeof LIST_OF;
          assert.notEqual(d[LIST_OF[kind]], undefined, `${kind} planned although the spec leaves ${LIST_OF[kind]} out`);
          if (object.steps.length === 0) continue;
          const inSpec = listed(d, kind).has(object.key);
          assert.ok(inSpec || owned(l, kind, object.key), `step on ${kind} ${object.key}, neither listed nor pvectl's`);
          for (const step of object.steps) {
            if (step.action !== "object-delete") continue;
            // Deleted: pvectl's and unlisted, or a role the spec says is absent.
            const absentRole = kind === "access-role" && (d.roles ?? []).some((r) => r.id === object.key && r.absent);
            assert.ok(absentRole || (!inSpec && owned(l, kind, object.key)), `delete of ${kind} ${object.key}`);
            if (kind !== "access-pool" && kind !== "access-role") assert.equal(step.severity, "service-impact");
          }
          if (object.foreign) assert.fail(`foreign ${kind} ${object.key} has steps`);
        }
      }),
      { numRuns: 400 },
    );
  });
});
