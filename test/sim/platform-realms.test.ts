// Realm administration (pve-access-control PVE/API2/Domains.pm, PVE/Auth/*.pm options):
// per-type keys stored and returned, pam/pve reserved, `default` moves, Realm.Allocate needed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

describe("simulator: /access/domains create, update, delete", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  const realm = async (name: string) => (await call(sim, "GET", `/access/domains/${name}`, { auth: root })).json.data;

  it("stores an OpenID realm's keys and returns them; the secret-free listing names it", async () => {
    const res = await call(sim, "POST", "/access/domains", {
      auth: root,
      params: {
        realm: "sso",
        type: "openid",
        "issuer-url": "https://idp.example/realms/x",
        "client-id": "pve",
        "client-key": "k",
        autocreate: 1,
        "username-claim": "email",
        comment: "SSO",
      },
    });
    assert.equal(res.status, 200, res.text);
    const got = await realm("sso");
    assert.equal(got.type, "openid");
    assert.equal(got["issuer-url"], "https://idp.example/realms/x");
    assert.equal(got["client-id"], "pve");
    assert.equal(got.autocreate, 1);
    assert.equal(got["username-claim"], "email");
    assert.equal(got.comment, "SSO");
    assert.match(got.digest, /^[0-9a-f]{40}$/);
    const list = (await call(sim, "GET", "/access/domains", { auth: root })).json.data;
    assert.deepEqual(
      list.find((r: { realm: string }) => r.realm === "sso"),
      { realm: "sso", type: "openid", comment: "SSO" },
    );
    // username-claim is `fixed`: set on create only (the update schema does not list it).
    const fixed = await call(sim, "PUT", "/access/domains/sso", { auth: root, params: { "username-claim": "sub" } });
    assert.equal(fixed.status, 400);
  });

  it("stores an LDAP realm without its bind password; update and delete keys; digest guards", async () => {
    const params = {
      realm: "corp",
      type: "ldap",
      server1: "ldap.example",
      base_dn: "dc=example,dc=com",
      user_attr: "uid",
      bind_dn: "cn=pve",
      password: "s3cret",
      mode: "ldaps",
      default: 1,
    };
    assert.equal((await call(sim, "POST", "/access/domains", { auth: root, params })).status, 200);
    const got = await realm("corp");
    assert.equal(got.server1, "ldap.example");
    assert.equal(got.mode, "ldaps");
    assert.equal(got.default, 1);
    assert.equal(got.password, undefined);
    // `default` moves: only one realm carries it.
    const list = (await call(sim, "GET", "/access/domains", { auth: root })).json.data as Array<{ realm: string; default?: number }>;
    assert.deepEqual(
      list.filter((r) => r.default).map((r) => r.realm),
      ["corp"],
    );
    const stale = await call(sim, "PUT", "/access/domains/corp", { auth: root, params: { server2: "b", digest: "0".repeat(40) } });
    assert.equal(stale.status, 500);
    assert.match(stale.json.message ?? stale.text, /detected modified configuration/);
    const upd = await call(sim, "PUT", "/access/domains/corp", {
      auth: root,
      params: { server2: "ldap2.example", delete: "bind_dn", digest: got.digest },
    });
    assert.equal(upd.status, 200, upd.text);
    const after = await realm("corp");
    assert.equal(after.server2, "ldap2.example");
    assert.equal(after.bind_dn, undefined);
    assert.equal((await call(sim, "PUT", "/access/domains/corp", { auth: root, params: { "issuer-url": "x" } })).status, 500);
    assert.equal((await call(sim, "PUT", "/access/domains/corp", { auth: root, params: {} })).status, 500);
    assert.equal((await call(sim, "DELETE", "/access/domains/corp", { auth: root })).status, 200);
    assert.equal((await call(sim, "GET", "/access/domains/corp", { auth: root })).status, 500);
  });

  it("refuses missing required keys, reserved names and builtin types", async () => {
    const missing = await call(sim, "POST", "/access/domains", { auth: root, params: { realm: "l2", type: "ldap", server1: "x" } });
    assert.equal(missing.status, 500);
    assert.match(missing.text, /missing value for required option 'base_dn'/);
    const reserved = await call(sim, "POST", "/access/domains", {
      auth: root,
      params: { realm: "pam", type: "openid", "issuer-url": "u", "client-id": "c" },
    });
    assert.match(reserved.text, /already exists/);
    const builtin = await call(sim, "POST", "/access/domains", { auth: root, params: { realm: "local2", type: "pve" } });
    assert.match(builtin.text, /unable to create builtin type 'pve'/);
  });

  it("pam and pve can be updated; deleting one only resets it (PVE re-adds them on read)", async () => {
    assert.equal(
      (await call(sim, "PUT", "/access/domains/pve", { auth: root, params: { comment: "local users", default: 1 } })).status,
      200,
    );
    assert.equal((await realm("pve")).comment, "local users");
    assert.equal((await call(sim, "DELETE", "/access/domains/pve", { auth: root })).status, 200);
    const reset = await realm("pve");
    assert.equal(reset.comment, "Proxmox VE authentication server");
    assert.equal(reset.default, undefined);
  });

  it("needs Realm.Allocate on /access/realm", async () => {
    await createUser(sim, root, "ops@pve");
    const ops = await login(sim, "ops@pve", "secret123");
    const denied = await call(sim, "POST", "/access/domains", {
      auth: ops,
      params: { realm: "x1", type: "openid", "issuer-url": "u", "client-id": "c" },
    });
    assert.equal(denied.status, 403);
    await grant(sim, root, "/access/realm", "Administrator", { users: "ops@pve" });
    const allowed = await call(sim, "POST", "/access/domains", {
      auth: ops,
      params: { realm: "x1", type: "openid", "issuer-url": "u", "client-id": "c" },
    });
    assert.equal(allowed.status, 200, allowed.text);
  });
});
