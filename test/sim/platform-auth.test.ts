// Tickets, CSRF tokens, API tokens with privilege separation, and permission failures.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { totpCode } from "../../src/sim/access/totp.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createToken, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

describe("simulator authentication", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("issues tickets in PVE's format with a CSRF token and capabilities", async () => {
    const res = await call(sim, "POST", "/access/ticket", { params: { username: "root", realm: "pam", password: "proxmox" } });
    assert.equal(res.status, 200);
    const data = res.json.data;
    assert.equal(data.username, "root@pam");
    assert.match(data.ticket, /^PVE:root@pam:[0-9A-F]{8}::\S+$/);
    assert.match(data.CSRFPreventionToken, /^[0-9A-F]{8}:\S+$/);
    assert.equal(data.cap.vms["VM.Allocate"], 1);
    assert.equal(typeof data.clustername, "string");
  });

  it("answers a wrong password with 401 and a JSON body", async () => {
    const res = await call(sim, "POST", "/access/ticket", { params: { username: "root@pam", password: "wrong" } });
    assert.equal(res.status, 401);
    assert.equal(res.reason, "authentication failure");
    assert.deepEqual(res.json, { data: null, message: "authentication failure\n" });
  });

  it("requires the CSRF token on writes with a ticket, not on reads", async () => {
    assert.equal((await call(sim, "GET", "/access/users", { auth: root })).status, 200);
    const without = await call(sim, "POST", "/access/groups", { auth: root, csrf: false, params: { groupid: "ops" } });
    assert.equal(without.status, 401);
    assert.equal(without.reason, "Permission denied - invalid csrf token");
    assert.equal(without.text, "");
    const forged = await call(sim, "POST", "/access/groups", {
      auth: { ticket: (root as { ticket: string }).ticket, csrf: "6B0FEED8:Zm9yZ2Vk" },
      params: { groupid: "ops" },
    });
    assert.equal(forged.status, 401);
    const ok = await call(sim, "POST", "/access/groups", { auth: root, params: { groupid: "ops" } });
    assert.equal(ok.status, 200);
  });

  it("expires tickets after two hours of simulated time and renews them with the ticket as password", async () => {
    const fresh = await login(sim);
    const renewed = await call(sim, "POST", "/access/ticket", { params: { username: "root@pam", password: fresh.ticket } });
    assert.equal(renewed.status, 200);
    sim.admin.advanceClock(7201);
    try {
      const res = await call(sim, "GET", "/version", { auth: fresh });
      assert.equal(res.status, 401);
      assert.equal(res.reason, "Authentication failed!");
    } finally {
      sim.admin.advanceClock(-7201);
    }
    assert.equal((await call(sim, "GET", "/version", { auth: fresh })).status, 200);
  });

  it("creates API tokens whose secret authenticates without CSRF", async () => {
    const res = await call(sim, "POST", "/access/users/root@pam/token/ci", { auth: root, params: { comment: "ci" } });
    assert.equal(res.status, 200);
    assert.equal(res.json.data["full-tokenid"], "root@pam!ci");
    // create_token answers the token as it built it: no expire when none was given.
    assert.deepEqual(res.json.data.info, { privsep: 1, comment: "ci" });
    assert.match(res.json.data.value, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const token = { token: `root@pam!ci=${res.json.data.value}` };
    assert.equal((await call(sim, "GET", "/version", { auth: token })).status, 200);
    const spaced = await fetch(`${sim.url}/api2/json/version`, {
      headers: { Authorization: `PVEAPIToken root@pam!ci ${res.json.data.value}` },
    });
    assert.equal(spaced.status, 200);
    const wrong = await call(sim, "GET", "/version", { auth: { token: "root@pam!ci=00000000-0000-4000-8000-000000000000" } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.reason, "Authentication failed!");
    const listed = await call(sim, "GET", "/access/users/root@pam/token", { auth: root });
    assert.deepEqual(listed.json.data, [{ tokenid: "ci", privsep: 1, expire: 0, comment: "ci" }]);
    const updated = await call(sim, "PUT", "/access/users/root@pam/token/ci", { auth: root, params: { comment: "test", privsep: 0 } });
    assert.deepEqual(updated.json.data, { comment: "test", expire: "0", privsep: "0" }); // as recorded from PVE
    assert.deepEqual((await call(sim, "GET", "/access/users/root@pam/token/ci", { auth: root })).json.data, {
      privsep: 0,
      expire: 0,
      comment: "test",
    });
  });

  it("refuses endpoints marked not for tokens", async () => {
    const t = await createToken(sim, root, "root@pam", "nopw", 0);
    const res = await call(sim, "PUT", "/access/password", { auth: t, params: { userid: "root@pam", password: "newpassword" } });
    assert.equal(res.status, 403);
    assert.equal(res.reason, "Permission check failed (URI '/access/password' not available with API token, need proper ticket.");
  });

  it("intersects a privilege-separated token's ACLs with its user's privileges", async () => {
    const alice = await createUser(sim, root, "alice@pve");
    await grant(sim, root, "/vms", "PVEVMAdmin", { users: "alice@pve" });
    const separated = await createToken(sim, alice, "alice@pve", "sep", 1);
    const full = await createToken(sim, alice, "alice@pve", "full", 0);
    // A privsep token without ACLs of its own has no privileges at all.
    const none = await call(sim, "GET", "/access/permissions", { auth: separated });
    assert.deepEqual(none.json.data, {});
    const denied = await call(sim, "GET", "/nodes/pve1/qemu/100/config", { auth: separated });
    assert.equal(denied.status, 403);
    assert.equal(denied.reason, "Permission check failed (/vms/100, VM.Audit)");
    // Its own ACL (Administrator) is cut down to what alice holds (PVEVMAdmin).
    await grant(sim, root, "/", "Administrator", { tokens: "alice@pve!sep" });
    const cut = await call(sim, "GET", "/access/permissions", { auth: separated, params: { path: "/vms/100" } });
    assert.deepEqual(
      Object.keys(cut.json.data["/vms/100"]).sort(),
      Object.keys(cut.json.data["/vms/100"])
        .filter((p) => p.startsWith("VM."))
        .sort(),
    );
    assert.equal(cut.json.data["/vms/100"]["VM.PowerMgmt"], 1);
    assert.equal(cut.json.data["/vms/100"]["Sys.Audit"], undefined);
    const nothingOnNodes = await call(sim, "GET", "/access/permissions", { auth: separated, params: { path: "/nodes/pve1" } });
    assert.deepEqual(nothingOnNodes.json.data, { "/nodes/pve1": {} });
    // privsep=0: exactly the user's privileges.
    const fullPerms = await call(sim, "GET", "/access/permissions", { auth: full, params: { path: "/vms/100" } });
    assert.equal(Object.keys(fullPerms.json.data["/vms/100"]).length, 23);
  });

  it("reports root-only endpoints and missing privileges in PVE's words", async () => {
    const bob = await createUser(sim, root, "bob@pve");
    const rootOnly = await call(sim, "POST", "/nodes/pve1/execute", { auth: bob, params: { commands: "[]" } });
    assert.equal(rootOnly.status, 403);
    assert.equal(rootOnly.reason, "Permission check failed (user != root@pam)");
    const group = await call(sim, "POST", "/access/groups", { auth: bob, params: { groupid: "devs" } });
    assert.equal(group.status, 403);
    assert.deepEqual(group.json, { data: null, message: "Permission check failed (/access/groups, Group.Allocate)\n" });
    const any = await call(sim, "GET", "/access/groups/ops", { auth: bob });
    assert.equal(any.reason, "Permission check failed (/access/groups, Sys.Audit|Group.Allocate)");
  });

  it("lets users manage their own tokens but not other users'", async () => {
    const carol = await createUser(sim, root, "carol@pve");
    assert.equal((await call(sim, "POST", "/access/users/carol@pve/token/mine", { auth: carol })).status, 200);
    const other = await call(sim, "POST", "/access/users/root@pam/token/stolen", { auth: carol });
    assert.equal(other.status, 403);
  });
});

describe("simulator access config", () => {
  it("creates users, groups, roles, tokens with fixed secrets and ACLs from the cluster config", async () => {
    const secret = "11111111-2222-4333-8444-555555555555";
    const sim = await startHttpSim({
      config: {
        access: {
          groups: [{ groupid: "ops" }],
          roles: [{ roleid: "Deployer", privs: ["VM.Audit", "VM.PowerMgmt"] }],
          users: [{ userid: "ansible@pve", password: "ansible123", groups: ["ops"], tokens: [{ tokenid: "ci", secret, privsep: false }] }],
          acl: [{ path: "/vms", roles: ["Deployer"], groups: ["ops"] }],
        },
      },
    });
    try {
      const token = { token: `ansible@pve!ci=${secret}` };
      const perms = await call(sim, "GET", "/access/permissions", { auth: token, params: { path: "/vms/100" } });
      assert.deepEqual(perms.json.data, { "/vms/100": { "VM.Audit": 1, "VM.PowerMgmt": 1 } });
      await login(sim, "ansible@pve", "ansible123");
    } finally {
      await sim.close();
    }
  });

  it("explains what is wrong in an invalid access section", async () => {
    await assert.rejects(
      startHttpSim({ config: { access: { users: [{ userid: "x@pve", groups: ["missing"] }] } } }),
      (err: Error & { userMessage?: () => string }) => {
        assert.equal(
          err.userMessage?.(),
          "The 'access' section of the simulator's cluster config is invalid: access.users.x@pve: group 'missing' is not listed under access.groups. Fix the --config file and start again.",
        );
        return true;
      },
    );
  });
});

describe("simulator two-factor login", () => {
  const secret = "JBSWY3DPEHPK3PXP";
  let sim: RunningSimulator;
  before(async () => {
    sim = await startHttpSim({ config: { access: { users: [{ userid: "tfa@pve", password: "password1", totp: secret }] } } });
  });
  after(() => sim.close());

  const code = (offset = 0) => totpCode(secret, Math.floor(Date.now() / 1000) + offset);

  it("answers a password-only login with NeedTFA and a partial ticket that opens nothing", async () => {
    const first = await call(sim, "POST", "/access/ticket", { params: { username: "tfa@pve", password: "password1" } });
    assert.equal(first.status, 200);
    assert.equal(first.json.data.NeedTFA, 1);
    assert.equal(first.json.data.CSRFPreventionToken, undefined);
    const partial = { ticket: first.json.data.ticket as string };
    assert.equal((await call(sim, "GET", "/version", { auth: partial })).status, 401);
    const wrong = await call(sim, "POST", "/access/ticket", {
      params: { username: "tfa@pve", "tfa-challenge": partial.ticket, password: `totp:${code(-300)}` },
    });
    assert.equal(wrong.status, 401);
    const second = await call(sim, "POST", "/access/ticket", {
      params: { username: "tfa@pve", "tfa-challenge": partial.ticket, password: `totp:${code()}` },
    });
    assert.equal(second.status, 200);
    assert.equal(second.json.data.NeedTFA, undefined);
    const full = { ticket: second.json.data.ticket as string, csrf: second.json.data.CSRFPreventionToken as string };
    assert.equal((await call(sim, "GET", "/version", { auth: full })).status, 200);
  });

  it("accepts the one-step form with otp (as proxmoxer sends it)", async () => {
    const ok = await call(sim, "POST", "/access/ticket", { params: { username: "tfa@pve", password: "password1", otp: code() } });
    assert.equal(ok.status, 200);
    assert.match(ok.json.data.ticket, /^PVE:tfa@pve:/);
    const old = await call(sim, "POST", "/access/ticket", { params: { username: "tfa@pve", password: "password1", otp: code(-300) } });
    assert.equal(old.status, 401);
  });
});
