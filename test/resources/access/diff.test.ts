import { plannedParams, plannedPath } from "../../../src/plan/resolve-call.js";
// The access diff on its own (no cluster): which fields become which calls, what needs adopt,
// what is kept, and the order apply runs the objects in.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DesiredAccess, type LiveAccess, planAccess } from "../../../src/resources/access/index.js";

const empty = (): LiveAccess => ({ roles: [], groups: [], users: [], tokens: [], acls: [], pools: [] });
const calls = (d: DesiredAccess, l: LiveAccess, adopt = false) =>
  planAccess(d, l, { adopt }).objects.flatMap((o) =>
    o.steps.flatMap((s) => s.calls.map((c) => `${c.method} ${plannedPath(c)} ${JSON.stringify(plannedParams(c))}`)),
  );

describe("access diff", () => {
  it("updates only the fields the spec names, keeping the user's text before the marker", () => {
    const live = {
      ...empty(),
      users: [{ id: "u@pve", enable: true, expire: 0, groups: ["a", "b"], comment: "old", marked: true }],
      groups: [{ id: "a", marked: true }],
    };
    assert.deepEqual(calls({ users: [{ id: "u@pve", groups: ["a"], adopt: false }] }, live), ['PUT /access/users/u%40pve {"groups":"a"}']);
    assert.deepEqual(calls({ users: [{ id: "u@pve", comment: "new", adopt: false }] }, live), [
      'PUT /access/users/u%40pve {"comment":"new [pvectl]"}',
    ]);
    assert.deepEqual(calls({ users: [{ id: "u@pve", enable: true, expire: 0, adopt: false }] }, live), []);
  });

  it("an unmarked object the spec lists is refused, or adopted (marker only) with adopt", () => {
    const live = { ...empty(), groups: [{ id: "g", comment: "theirs", marked: false }] };
    const refused = planAccess({ groups: [{ id: "g", adopt: false }] }, live);
    assert.equal(refused.refused.length, 1);
    assert.equal(refused.objects[0]?.steps.length, 0);
    assert.deepEqual(calls({ groups: [{ id: "g", adopt: true }] }, live), ['PUT /access/groups/g {"comment":"theirs [pvectl]"}']);
    assert.deepEqual(calls({ groups: [{ id: "g", adopt: false }] }, live, true), ['PUT /access/groups/g {"comment":"theirs [pvectl]"}']);
  });

  it("a role with other privileges needs adopt; with equal privileges nothing is planned", () => {
    const live = { ...empty(), roles: [{ id: "R", privileges: ["VM.Audit"], builtin: false }] };
    assert.deepEqual(calls({ roles: [{ id: "R", privileges: ["VM.Audit"], absent: false, adopt: false }] }, live), []);
    const refused = planAccess({ roles: [{ id: "R", privileges: ["VM.Allocate", "VM.Audit"], absent: false, adopt: false }] }, live);
    assert.match(refused.refused[0]?.message ?? "", /roles carry no marker/);
    assert.deepEqual(calls({ roles: [{ id: "R", privileges: ["VM.Allocate", "VM.Audit"], absent: false, adopt: true }] }, live), [
      'PUT /access/roles/R {"privs":"VM.Allocate,VM.Audit"}',
    ]);
  });

  it("sets an ACL entry's propagate flag with the same PUT; removes only entries of pvectl's subjects", () => {
    const live: LiveAccess = {
      ...empty(),
      users: [
        { id: "mine@pve", enable: true, expire: 0, groups: [], marked: true },
        { id: "theirs@pve", enable: true, expire: 0, groups: [], marked: false },
      ],
      acls: [
        { path: "/vms", role: "PVEAuditor", type: "user", ugid: "mine@pve", propagate: true },
        { path: "/", role: "PVEAuditor", type: "user", ugid: "mine@pve", propagate: true },
        { path: "/", role: "PVEAuditor", type: "user", ugid: "theirs@pve", propagate: true },
      ],
    };
    const d: DesiredAccess = { acls: [{ path: "/vms", role: "PVEAuditor", type: "user", ugid: "mine@pve", propagate: false }] };
    assert.deepEqual(calls(d, live), [
      'PUT /access/acl {"path":"/vms","roles":"PVEAuditor","users":"mine@pve","propagate":0}',
      'PUT /access/acl {"path":"/","roles":"PVEAuditor","users":"mine@pve","delete":1}',
    ]);
  });

  it("keeps pvectl's pool while it has members; deletes it when empty", () => {
    const live = (members: number): LiveAccess => ({ ...empty(), pools: [{ id: "old", marked: true, members }] });
    const kept = planAccess({ pools: [] }, live(2)).objects[0];
    assert.equal(kept?.steps.length, 0);
    assert.match(kept?.warnings[0] ?? "", /still holds 2 member/);
    assert.deepEqual(calls({ pools: [] }, live(0)), ['DELETE /pools {"poolid":"old"}']);
    // Empty now, but a guest of the same plan joins it: kept.
    const joined = planAccess({ pools: [] }, live(0), { poolsInUse: ["old"] }).objects[0];
    assert.equal(joined?.steps.length, 0);
    assert.match(joined?.warnings[0] ?? "", /guests of this spec join it/);
  });

  it("orders creates by dependency before the guests, removals in reverse after them", () => {
    const live: LiveAccess = {
      ...empty(),
      users: [{ id: "gone@pve", enable: true, expire: 0, groups: [], marked: true }],
      tokens: [{ user: "gone@pve", name: "t", privsep: true, expire: 0, marked: true }],
      acls: [{ path: "/", role: "PVEAuditor", type: "token", ugid: "gone@pve!t", propagate: true }],
    };
    const d: DesiredAccess = {
      pools: [{ id: "p", adopt: false }],
      roles: [{ id: "R", privileges: ["VM.Audit"], absent: false, adopt: false }],
      groups: [{ id: "g", adopt: false }],
      users: [{ id: "new@pve", groups: ["g"], adopt: false }],
      tokens: [{ user: "new@pve", name: "ci", privsep: true, secretFile: "/x", adopt: false }],
      acls: [{ path: "/pool/p", role: "R", type: "token", ugid: "new@pve!ci", propagate: true }],
    };
    const plan = planAccess(d, live).objects.filter((o) => o.steps.length > 0);
    assert.deepEqual(
      plan.map((o) => `${o.kind}:${o.steps[0]?.action}:${o.phase ?? "after"}`),
      [
        "access-pool:object-create:before-guests",
        "access-role:object-create:before-guests",
        "access-group:object-create:before-guests",
        "access-user:object-create:before-guests",
        "access-token:object-create:before-guests",
        "access-acl:object-create:before-guests",
        "access-acl:object-delete:after",
        "access-token:object-delete:after",
        "access-user:object-delete:after",
      ],
    );
  });

  it("refuses references to what will not exist: a missing role, subject, group or user", () => {
    const d: DesiredAccess = {
      users: [{ id: "u@pve", groups: ["nope"], adopt: false }],
      tokens: [{ user: "ghost@pve", name: "t", privsep: true, secretFile: "/x", adopt: false }],
      acls: [{ path: "/", role: "NoSuchRole", type: "group", ugid: "nobody", propagate: true }],
    };
    const errors = planAccess(d, empty()).objects.flatMap((o) => o.errors);
    assert.equal(errors.length, 4, errors.join("\n"));
    assert.ok(errors.some((e) => /group nope does not exist/.test(e)));
    assert.ok(errors.some((e) => /user ghost@pve does not exist/.test(e)));
    assert.ok(errors.some((e) => /role NoSuchRole does not exist/.test(e)));
    assert.ok(errors.some((e) => /group nobody will not exist/.test(e)));
  });

  it("refuses an ACL entry for a subject the same plan removes", () => {
    const live: LiveAccess = { ...empty(), users: [{ id: "old@pve", enable: true, expire: 0, groups: [], marked: true }] };
    const d: DesiredAccess = { users: [], acls: [{ path: "/", role: "PVEAuditor", type: "user", ugid: "old@pve", propagate: true }] };
    const errors = planAccess(d, live).objects.flatMap((o) => o.errors);
    assert.match(errors.join("\n"), /user old@pve will not exist: the spec's access.users neither lists it nor keeps it/);
  });
});
