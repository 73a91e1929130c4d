// ACL evaluation: propagation, levels replacing inherited roles, user over group, NoAccess,
// and the shapes of /access/acl, /access/roles and /access/permissions.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

async function privsOn(sim: RunningSimulator, auth: Credentials, path: string): Promise<string[]> {
  const res = await call(sim, "GET", "/access/permissions", { auth, params: { path } });
  assert.equal(res.status, 200);
  return Object.keys(res.json.data[path] ?? {}).sort();
}

describe("simulator ACLs and roles", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("lists PVE 9's built-in roles with their exact privileges", async () => {
    const res = await call(sim, "GET", "/access/roles", { auth: root });
    const roles = Object.fromEntries(res.json.data.map((r: { roleid: string; privs: string; special: number }) => [r.roleid, r]));
    assert.equal(roles.Administrator.privs.split(",").length, 47);
    assert.equal(roles.PVEAdmin.privs.split(",").length, 40);
    assert.equal(roles.PVEVMAdmin.privs.split(",").length, 23);
    assert.equal(
      roles.PVEVMUser.privs,
      "VM.Audit,VM.Backup,VM.Config.CDROM,VM.Config.Cloudinit,VM.Console,VM.GuestAgent.Audit,VM.GuestAgent.FileRead,VM.GuestAgent.FileSystemMgmt,VM.GuestAgent.FileWrite,VM.PowerMgmt",
    );
    assert.equal(roles.PVEAuditor.privs, "Datastore.Audit,Mapping.Audit,Pool.Audit,SDN.Audit,Sys.Audit,VM.Audit,VM.GuestAgent.Audit");
    assert.equal(roles.PVEDatastoreUser.privs, "Datastore.AllocateSpace,Datastore.Audit");
    assert.equal(roles.NoAccess.privs, "");
    assert.equal(roles.NoAccess.special, 1);
    assert.equal(roles.PVEAdmin.privs.includes("Sys.Modify"), false);
  });

  it("propagates roles to sub-paths only when propagate is set", async () => {
    const u = await createUser(sim, root, "prop@pve");
    await grant(sim, root, "/vms", "PVEVMUser", { users: "prop@pve" }, 0);
    assert.ok((await privsOn(sim, u, "/vms")).includes("VM.PowerMgmt"));
    assert.deepEqual(await privsOn(sim, u, "/vms/100"), []);
    await grant(sim, root, "/vms", "PVEVMUser", { users: "prop@pve" }, 1);
    assert.ok((await privsOn(sim, u, "/vms/100")).includes("VM.PowerMgmt"));
  });

  it("lets a deeper entry replace inherited roles, and NoAccess override everything", async () => {
    const u = await createUser(sim, root, "deep@pve");
    await grant(sim, root, "/", "Administrator", { users: "deep@pve" });
    await grant(sim, root, "/vms", "PVEAuditor", { users: "deep@pve" });
    assert.deepEqual(await privsOn(sim, u, "/vms/101"), [
      "Datastore.Audit",
      "Mapping.Audit",
      "Pool.Audit",
      "SDN.Audit",
      "Sys.Audit",
      "VM.Audit",
      "VM.GuestAgent.Audit",
    ]);
    assert.equal((await privsOn(sim, u, "/nodes/pve1")).length, 47);
    await grant(sim, root, "/vms/101", "NoAccess", { users: "deep@pve" });
    assert.deepEqual(await privsOn(sim, u, "/vms/101"), []);
    const denied = await call(sim, "GET", "/nodes/pve1/qemu/101/status/current", { auth: u });
    assert.equal(denied.status, 403);
    assert.equal(denied.reason, "Permission check failed (/vms/101, VM.Audit)");
  });

  it("prefers the user's own entry over its groups' entries on the same path", async () => {
    assert.equal((await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "admins" } })).status, 200);
    const u = await createUser(sim, root, "member@pve");
    assert.equal((await call(sim, "PUT", "/access/users/member@pve", { auth: root, params: { groups: "admins" } })).status, 200);
    await grant(sim, root, "/storage", "PVEDatastoreAdmin", { groups: "admins" });
    assert.deepEqual(await privsOn(sim, u, "/storage/local"), [
      "Datastore.Allocate",
      "Datastore.AllocateSpace",
      "Datastore.AllocateTemplate",
      "Datastore.Audit",
    ]);
    await grant(sim, root, "/storage", "PVEDatastoreUser", { users: "member@pve" });
    assert.deepEqual(await privsOn(sim, u, "/storage/local"), ["Datastore.AllocateSpace", "Datastore.Audit"]);
    const groups = await call(sim, "GET", "/access/groups", { auth: root });
    assert.deepEqual(groups.json.data, [{ groupid: "admins", users: "member@pve" }]);
  });

  it("lists ACL entries in PVE's shape and removes them with delete=1", async () => {
    await createUser(sim, root, "acl@pve");
    await grant(sim, root, "/pool/dev", "PVEPoolUser", { users: "acl@pve" }, 0);
    const listed = await call(sim, "GET", "/access/acl", { auth: root });
    assert.deepEqual(
      listed.json.data.filter((e: { ugid: string }) => e.ugid === "acl@pve"),
      [{ path: "/pool/dev", type: "user", ugid: "acl@pve", roleid: "PVEPoolUser", propagate: 0 }],
    );
    const removed = await call(sim, "PUT", "/access/acl", {
      auth: root,
      params: { path: "/pool/dev", roles: "PVEPoolUser", users: "acl@pve", delete: 1 },
    });
    assert.equal(removed.status, 200);
    const after = await call(sim, "GET", "/access/acl", { auth: root });
    assert.equal(
      after.json.data.some((e: { ugid: string }) => e.ugid === "acl@pve"),
      false,
    );
    const badRole = await call(sim, "PUT", "/access/acl", { auth: root, params: { path: "/", roles: "Nope", users: "acl@pve" } });
    assert.equal(badRole.status, 500);
    assert.equal(badRole.reason, "role 'Nope' does not exist");
  });

  it("dumps the caller's permissions per path, omitting paths without privileges", async () => {
    const u = await createUser(sim, root, "dump@pve");
    await grant(sim, root, "/vms/100", "PVEVMUser", { users: "dump@pve" });
    const res = await call(sim, "GET", "/access/permissions", { auth: u });
    assert.deepEqual(Object.keys(res.json.data), ["/vms/100"]);
    assert.equal(res.json.data["/vms/100"]["VM.Console"], 1);
    const rootDump = await call(sim, "GET", "/access/permissions", { auth: root });
    assert.equal(Object.keys(rootDump.json.data["/"]).length, 47);
    const other = await call(sim, "GET", "/access/permissions", { auth: u, params: { userid: "root@pam" } });
    assert.equal(other.status, 403);
    assert.equal(other.reason, "Permission check failed (/access, Sys.Audit)");
  });

  it("extends pool ACLs to the pool's storages, with a regular NoAccess still winning", async () => {
    assert.equal((await call(sim, "POST", "/pools", { auth: root, params: { poolid: "team" } })).status, 200);
    assert.equal((await call(sim, "PUT", "/pools/team", { auth: root, params: { storage: "local-lvm" } })).status, 200);
    const u = await createUser(sim, root, "pooled@pve");
    await grant(sim, root, "/pool/team", "PVEDatastoreUser", { users: "pooled@pve" });
    assert.deepEqual(await privsOn(sim, u, "/storage/local-lvm"), ["Datastore.AllocateSpace", "Datastore.Audit"]);
    assert.deepEqual(await privsOn(sim, u, "/storage/local"), []);
    await grant(sim, root, "/storage/local-lvm", "NoAccess", { users: "pooled@pve" });
    assert.deepEqual(await privsOn(sim, u, "/storage/local-lvm"), []);
  });

  it("evaluates 'and'/'or' checks with require_param: cloning needs VM.Allocate on the new id or on the named pool", async () => {
    assert.equal((await call(sim, "POST", "/pools", { auth: root, params: { poolid: "dev" } })).status, 200);
    assert.equal((await call(sim, "POST", "/nodes/pve1/qemu", { auth: root, params: { vmid: 820, memory: 512 } })).status, 200);
    await sim.admin.waitForTasks();
    const u = await createUser(sim, root, "cloner@pve");
    const noClone = await call(sim, "POST", "/nodes/pve1/qemu/820/clone", { auth: u, params: { newid: 821 } });
    assert.equal(noClone.reason, "Permission check failed (/vms/820, VM.Clone)");
    await grant(sim, root, "/vms/820", "PVETemplateUser", { users: "cloner@pve" });
    await grant(sim, root, "/pool/dev", "PVEVMAdmin", { users: "cloner@pve" });
    const outside = await call(sim, "POST", "/nodes/pve1/qemu/820/clone", { auth: u, params: { newid: 821 } });
    assert.equal(outside.status, 403);
    assert.equal(outside.reason, "Permission check failed");
    const inside = await call(sim, "POST", "/nodes/pve1/qemu/820/clone", { auth: u, params: { newid: 822, pool: "dev" } });
    assert.equal(inside.status, 200, inside.text);
    assert.match(inside.json.data, /^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:qmclone:820:cloner@pve:$/);
  });

  it("lets a user admin of one group create users in that group only (userid-group with groups_param)", async () => {
    assert.equal((await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "team-a" } })).status, 200);
    assert.equal((await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "team-b" } })).status, 200);
    const admin = await createUser(sim, root, "teamadmin@pve");
    await grant(sim, root, "/access/groups/team-a", "PVEUserAdmin", { users: "teamadmin@pve" });
    await grant(sim, root, "/access/realm/pve", "PVEUserAdmin", { users: "teamadmin@pve" });
    const ok = await call(sim, "POST", "/access/users", { auth: admin, params: { userid: "new-a@pve", groups: "team-a" } });
    assert.equal(ok.status, 200, ok.text);
    const other = await call(sim, "POST", "/access/users", { auth: admin, params: { userid: "new-b@pve", groups: "team-b" } });
    assert.equal(other.status, 403);
    assert.equal(other.reason, "Permission check failed (/access/groups/team-b, User.Modify)");
  });

  it("manages custom roles", async () => {
    const created = await call(sim, "POST", "/access/roles", { auth: root, params: { roleid: "Ops", privs: "VM.Audit,VM.PowerMgmt" } });
    assert.equal(created.status, 200);
    const read = await call(sim, "GET", "/access/roles/Ops", { auth: root });
    assert.deepEqual(read.json.data, { "VM.Audit": 1, "VM.PowerMgmt": 1 });
    const u = await createUser(sim, root, "ops@pve");
    await grant(sim, root, "/vms", "Ops", { users: "ops@pve" });
    assert.deepEqual(await privsOn(sim, u, "/vms/5000"), ["VM.Audit", "VM.PowerMgmt"]);
    const builtin = await call(sim, "PUT", "/access/roles/PVEAdmin", { auth: root, params: { privs: "VM.Audit" } });
    assert.equal(builtin.status, 500);
  });
});
