// The `cap` object of POST /access/ticket, area by area, as PVE's compute_api_permission
// (pve-access-control PVE/RPCEnvironment.pm) builds it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

type Cap = Record<string, Record<string, number>>;

async function capOf(sim: RunningSimulator, username: string, password: string): Promise<Record<string, string[]>> {
  const res = await call(sim, "POST", "/access/ticket", { params: { username, password } });
  assert.equal(res.status, 200, res.text);
  const cap = res.json.data.cap as Cap;
  return Object.fromEntries(Object.entries(cap).map(([area, privs]) => [area, Object.keys(privs).sort()]));
}

describe("ticket capabilities (cap)", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("gives root each area's own family, mapping included", async () => {
    const cap = await capOf(sim, "root@pam", sim.rootPassword);
    assert.deepEqual(Object.keys(cap).sort(), ["access", "dc", "mapping", "nodes", "sdn", "storage", "vms"]);
    assert.deepEqual(cap.access, ["Group.Allocate", "Permissions.Modify", "User.Modify"]);
    assert.deepEqual(cap.mapping, ["Mapping.Audit", "Mapping.Modify", "Mapping.Use", "Permissions.Modify"]);
    assert.deepEqual(cap.dc, ["SDN.Allocate", "SDN.Audit", "SDN.Use", "Sys.Audit", "Sys.Modify"]);
    assert.deepEqual(cap.sdn, ["Permissions.Modify", "SDN.Allocate", "SDN.Audit", "SDN.Use"]);
    assert.deepEqual(cap.storage, [
      "Datastore.Allocate",
      "Datastore.AllocateSpace",
      "Datastore.AllocateTemplate",
      "Datastore.Audit",
      "Permissions.Modify",
    ]);
    assert.deepEqual(cap.nodes, [
      "Permissions.Modify",
      "Sys.AccessNetwork",
      "Sys.Audit",
      "Sys.Console",
      "Sys.Incoming",
      "Sys.Modify",
      "Sys.PowerMgmt",
      "Sys.Syslog",
    ]);
    assert.ok(cap.vms?.includes("VM.Allocate") && cap.vms.includes("Permissions.Modify"));
    assert.ok(cap.vms?.every((p) => p.startsWith("VM.") || p === "Permissions.Modify"));
  });

  it("keeps Realm.* and Sys.Audit out of cap.access", async () => {
    await createUser(sim, root, "useradmin@pve", "secret123");
    await grant(sim, root, "/access", "PVEUserAdmin", { users: "useradmin@pve" });
    await grant(sim, root, "/access", "PVEAuditor", { users: "useradmin@pve" });
    const cap = await capOf(sim, "useradmin@pve", "secret123");
    assert.deepEqual(cap.access, ["Group.Allocate", "User.Modify"]);
    assert.deepEqual(cap.dc, []);
    assert.deepEqual(cap.mapping, []);
  });

  it("counts a pool's privileges for vms and storage only", async () => {
    assert.equal((await call(sim, "POST", "/pools", { auth: root, params: { poolid: "team" } })).status, 200);
    await createUser(sim, root, "pooladmin@pve", "secret123");
    await grant(sim, root, "/pool/team", "PVEVMAdmin,PVEDatastoreUser,PVEPoolAdmin", { users: "pooladmin@pve" });
    const cap = await capOf(sim, "pooladmin@pve", "secret123");
    assert.ok(cap.vms?.includes("VM.Allocate"));
    assert.deepEqual(cap.storage, ["Datastore.AllocateSpace", "Datastore.Audit"]);
    assert.deepEqual([cap.access, cap.nodes, cap.dc, cap.sdn, cap.mapping], [[], [], [], [], []]);
  });
});
