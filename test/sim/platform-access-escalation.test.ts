// PVE's rules against privilege escalation through the access endpoints: handing out roles on
// an ACL path (ACL.pm update_acl), managing users of some groups only (userid-group), tokens,
// roles (Sys.Modify, reserved names) and passwords (reauth_user_for_user_modification).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createToken, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

const REFUSED = "ACL update failed: 400 Parameter verification failed.";

function refusal(role: string, verb = "add", propagation = false): string {
  const why = propagation
    ? `Cannot ${verb} role '${role}' with propagation - requires 'Permissions.Modify' or propagated superset of privileges.`
    : `Cannot ${verb} role '${role}' - requires 'Permissions.Modify' or superset of privileges.`;
  return `${REFUSED}\nrole: ${why}\n`;
}

describe("simulator access changes follow PVE's escalation rules", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  const acl = (auth: Credentials, params: Record<string, string | number>) => call(sim, "PUT", "/access/acl", { auth, params });
  const privsOn = async (userid: string, path: string) => {
    const res = await call(sim, "GET", "/access/permissions", { auth: root, params: { userid, path } });
    return Object.keys(res.json.data[path] ?? {}).sort();
  };

  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
    for (const groupid of ["team-a", "team-b"]) await call(sim, "POST", "/access/groups", { auth: root, params: { groupid } });
  });
  after(() => sim.close());

  describe("PUT /access/acl", () => {
    let vmadmin: Credentials;
    before(async () => {
      vmadmin = await createUser(sim, root, "vmadmin@pve");
      await grant(sim, root, "/vms", "PVEVMAdmin", { users: "vmadmin@pve" });
      await createUser(sim, root, "helper@pve");
    });

    it("refuses a VM admin granting itself Administrator on a guest, with PVE's status and message, and changes nothing", async () => {
      const res = await acl(vmadmin, { path: "/vms/100", roles: "Administrator", users: "vmadmin@pve" });
      assert.equal(res.status, 500);
      assert.equal(res.reason, REFUSED);
      assert.equal(res.json.message, refusal("Administrator"));
      assert.equal((await privsOn("vmadmin@pve", "/vms/100")).includes("Permissions.Modify"), false);
    });

    it("checks every role before changing anything", async () => {
      const res = await acl(vmadmin, { path: "/vms/100", roles: "PVEVMUser,PVEAdmin", users: "helper@pve" });
      assert.equal(res.json.message, refusal("PVEAdmin"));
      assert.deepEqual(await privsOn("helper@pve", "/vms/100"), []);
    });

    it("refuses NoAccess and removing a role the caller does not hold", async () => {
      const noAccess = await acl(vmadmin, { path: "/vms/100", roles: "NoAccess", users: "helper@pve" });
      assert.equal(noAccess.json.message, `${REFUSED}\nrole: Cannot add role 'NoAccess' - requires 'Permissions.Modify'\n`);
      await grant(sim, root, "/vms/100", "PVEAuditor", { users: "helper@pve" });
      const removal = await acl(vmadmin, { path: "/vms/100", roles: "PVEAuditor", users: "helper@pve", delete: 1 });
      assert.equal(removal.json.message, refusal("PVEAuditor", "remove"));
      assert.ok((await privsOn("helper@pve", "/vms/100")).includes("Sys.Audit"));
    });

    it("lets a VM admin hand out a subset of its own privileges (VM.Allocate admits it, propagated from /vms)", async () => {
      const res = await acl(vmadmin, { path: "/vms/100", roles: "PVEVMUser", users: "helper@pve" });
      assert.equal(res.status, 200, res.text);
      assert.ok((await privsOn("helper@pve", "/vms/100")).includes("VM.PowerMgmt"));
      const removed = await acl(vmadmin, { path: "/vms/100", roles: "PVEVMUser", users: "helper@pve", delete: 1 });
      assert.equal(removed.status, 200, removed.text);
    });

    it("needs the caller's own privileges to propagate before it adds a propagating entry", async () => {
      const local = await createUser(sim, root, "local@pve");
      await grant(sim, root, "/vms/101", "PVEVMAdmin", { users: "local@pve" }, 0);
      const propagating = await acl(local, { path: "/vms/101", roles: "PVEVMUser", users: "helper@pve", propagate: 1 });
      assert.equal(propagating.json.message, refusal("PVEVMUser", "add", true));
      const flat = await acl(local, { path: "/vms/101", roles: "PVEVMUser", users: "helper@pve", propagate: 0 });
      assert.equal(flat.status, 200, flat.text);
    });

    it("lets Permissions.Modify hand out any role", async () => {
      assert.equal(
        (await call(sim, "POST", "/access/roles", { auth: root, params: { roleid: "AclKeeper", privs: "Permissions.Modify" } })).status,
        200,
      );
      const keeper = await createUser(sim, root, "keeper@pve");
      await grant(sim, root, "/vms", "AclKeeper", { users: "keeper@pve" });
      const res = await acl(keeper, { path: "/vms/102", roles: "Administrator", users: "helper@pve" });
      assert.equal(res.status, 200, res.text);
    });

    it("judges a privilege-separated token by its own privileges, not its user's", async () => {
      const owner = await createUser(sim, root, "owner@pve");
      await grant(sim, root, "/", "Administrator", { users: "owner@pve" });
      const token = await createToken(sim, owner, "owner@pve", "ci", 1);
      await grant(sim, root, "/vms", "PVEVMAdmin", { tokens: "owner@pve!ci" });
      const res = await acl(token, { path: "/vms/103", roles: "Administrator", tokens: "owner@pve!ci" });
      assert.equal(res.json.message, refusal("Administrator"));
    });

    it("answers a request without subjects, or with a path PVE does not know, with PVE's 400", async () => {
      const why = "either 'users', 'groups' or 'tokens' is required.";
      const none = await acl(root, { path: "/vms", roles: "PVEVMUser" });
      assert.equal(none.status, 400);
      assert.deepEqual(none.json.errors, { users: why, groups: why, tokens: why });
      const bad = await acl(root, { path: "/nowhere", roles: "PVEVMUser", users: "helper@pve" });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json.errors, { path: "invalid ACL path '/nowhere'" });
    });

    it("lists only entries on paths whose ACL the caller may change", async () => {
      const listed = await call(sim, "GET", "/access/acl", { auth: vmadmin });
      const paths = new Set(listed.json.data.map((e: { path: string }) => e.path));
      assert.ok(paths.has("/vms/101"), "VM.Allocate on a guest admits its ACL");
      assert.equal(paths.has("/"), false);
    });
  });

  describe("users and tokens (userid-group)", () => {
    let teamAdmin: Credentials;
    before(async () => {
      teamAdmin = await createUser(sim, root, "teamadmin@pve");
      await grant(sim, root, "/access/groups/team-a", "PVEUserAdmin", { users: "teamadmin@pve" });
      await grant(sim, root, "/access/realm/pve", "PVEUserAdmin", { users: "teamadmin@pve" });
      for (const [userid, groups] of [
        ["alice@pve", "team-a"],
        ["bob@pve", "team-b"],
        ["both@pve", "team-a,team-b"],
      ] as const) {
        assert.equal(
          (await call(sim, "POST", "/access/users", { auth: root, params: { userid, groups, password: "secret123" } })).status,
          200,
        );
      }
    });

    it("refuses creating a user in a group the caller does not manage, naming that group", async () => {
      const res = await call(sim, "POST", "/access/users", { auth: teamAdmin, params: { userid: "new-b@pve", groups: "team-b" } });
      assert.equal(res.status, 403);
      assert.equal(res.reason, "Permission check failed (/access/groups/team-b, User.Modify)");
    });

    it("refuses moving a member into another group, and an update that names no group", async () => {
      const moved = await call(sim, "PUT", "/access/users/alice@pve", { auth: teamAdmin, params: { groups: "team-a,team-b" } });
      assert.equal(moved.reason, "Permission check failed (/access/groups/team-b, User.Modify)");
      const bare = await call(sim, "PUT", "/access/users/alice@pve", { auth: teamAdmin, params: { comment: "x" } });
      assert.equal(bare.reason, "Permission check failed (/access/groups, User.Modify)");
      const outsider = await call(sim, "PUT", "/access/users/bob@pve", { auth: teamAdmin, params: { groups: "team-a" } });
      assert.equal(outsider.status, 403);
      assert.equal(outsider.reason, "Permission check failed");
    });

    it("lets a group admin update any member of its group, even one also in another group", async () => {
      const res = await call(sim, "PUT", "/access/users/both@pve", { auth: teamAdmin, params: { groups: "team-a", comment: "moved" } });
      assert.equal(res.status, 200, res.text);
    });

    it("lets a group admin make tokens for its members only; a token is never its user's 'self'", async () => {
      const member = await call(sim, "POST", "/access/users/alice@pve/token/ci", { auth: teamAdmin });
      assert.equal(member.status, 200, member.text);
      for (const userid of ["bob@pve", "root@pam"]) {
        const res = await call(sim, "POST", `/access/users/${userid}/token/ci`, { auth: teamAdmin });
        assert.equal(res.status, 403, userid);
        assert.equal(res.reason, "Permission check failed");
      }
      const bob = await login(sim, "bob@pve", "secret123");
      const token = await createToken(sim, bob, "bob@pve", "first", 1);
      const sibling = await call(sim, "POST", "/access/users/bob@pve/token/second", { auth: token });
      assert.equal(sibling.status, 403);
    });
  });

  describe("groups and roles", () => {
    it("needs Group.Allocate on /access/groups to create a group", async () => {
      const admin = await login(sim, "teamadmin@pve", "secret123");
      const res = await call(sim, "POST", "/access/groups", { auth: admin, params: { groupid: "mine" } });
      assert.equal(res.reason, "Permission check failed (/access/groups, Group.Allocate)");
      const groupAdmin = await createUser(sim, root, "groupadmin@pve");
      await grant(sim, root, "/access/groups", "PVEUserAdmin", { users: "groupadmin@pve" });
      const created = await call(sim, "POST", "/access/groups", { auth: groupAdmin, params: { groupid: "mine" } });
      assert.equal(created.status, 200, created.text);
    });

    it("needs Sys.Modify on /access for roles, keeps the PVE namespace and the built-in roles", async () => {
      const vmadmin = await login(sim, "vmadmin@pve", "secret123");
      const denied = await call(sim, "POST", "/access/roles", { auth: vmadmin, params: { roleid: "Mine", privs: "Sys.Modify" } });
      assert.equal(denied.reason, "Permission check failed (/access, Sys.Modify)");
      const namespaced = await call(sim, "POST", "/access/roles", { auth: root, params: { roleid: "pveOwn", privs: "VM.Audit" } });
      assert.equal(namespaced.status, 400);
      assert.deepEqual(namespaced.json.errors, { roleid: "cannot use role ID starting with the (case-insensitive) 'PVE' namespace" });
      const builtin = await call(sim, "PUT", "/access/roles/PVEAdmin", { auth: root, params: { privs: "VM.Audit" } });
      assert.equal(builtin.reason, "auto-generated role 'PVEAdmin' cannot be modified");
      const gone = await call(sim, "DELETE", "/access/roles/NoAccess", { auth: root });
      assert.equal(gone.reason, "auto-generated role 'NoAccess' cannot be deleted");
      await call(sim, "POST", "/access/roles", { auth: root, params: { roleid: "RoleKeeper", privs: "Sys.Modify" } });
      const keeper = await createUser(sim, root, "rolekeeper@pve");
      await grant(sim, root, "/access", "RoleKeeper", { users: "rolekeeper@pve" }, 0);
      const made = await call(sim, "POST", "/access/roles", { auth: keeper, params: { roleid: "Mine", privs: "VM.Audit" } });
      assert.equal(made.status, 200, made.text);
    });
  });

  describe("PUT /access/password", () => {
    let userAdmin: Credentials;
    before(async () => {
      userAdmin = await createUser(sim, root, "useradmin@pve", "admin-pass1");
      await grant(sim, root, "/", "PVEUserAdmin", { users: "useradmin@pve" });
      assert.equal((await call(sim, "POST", "/access/users", { auth: root, params: { userid: "svc@pam" } })).status, 200);
    });
    const change = (userid: string, extra: Record<string, string> = {}) =>
      call(sim, "PUT", "/access/password", { auth: userAdmin, params: { userid, password: "changed-pass1", ...extra } });

    it("lets only root@pam change root@pam's password, and nobody else a pam account's", async () => {
      const rootChange = await change("root@pam", { "confirmation-password": "admin-pass1" });
      assert.equal(rootChange.status, 403);
      assert.equal(rootChange.reason, "Permission check failed");
      await login(sim);
      const pam = await change("svc@pam", { "confirmation-password": "admin-pass1" });
      assert.equal(pam.status, 403);
    });

    it("asks for the caller's own password before changing another user's", async () => {
      const bare = await change("alice@pve");
      assert.equal(bare.status, 400);
      assert.deepEqual(bare.json.errors, { "confirmation-password": "password is required to modify user" });
      const ok = await change("alice@pve", { "confirmation-password": "admin-pass1" });
      assert.equal(ok.status, 200, ok.text);
      await login(sim, "alice@pve", "changed-pass1");
    });
  });
});
