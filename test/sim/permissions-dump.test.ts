// GET /access/permissions?userid= as pve-access-control answers it: who may ask (itself, a
// user for its own tokens, else Sys.Audit on /access), a privilege-separated token's dump cut to
// its user's, an unknown user or token holding nothing (PVE does not look it up), and `path=`
// answered under the key as given.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createToken, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

describe("GET /access/permissions?userid=", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  let user: Credentials;
  let token: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
    user = await createUser(sim, root, "ops@pve");
    token = await createToken(sim, root, "ops@pve", "ci", 1);
    await grant(sim, root, "/vms", "PVEVMAdmin", { users: "ops@pve" });
    await grant(sim, root, "/vms", "PVEVMUser", { tokens: "ops@pve!ci" });
  });
  after(() => sim.close());

  const dump = async (auth: Credentials, params: Record<string, string>) => call(sim, "GET", "/access/permissions", { auth, params });

  it("a user reads its own tokens; the token's privileges are the intersection with the user's", async () => {
    const res = await dump(user, { userid: "ops@pve!ci" });
    assert.equal(res.status, 200);
    assert.ok("VM.PowerMgmt" in res.json.data["/vms"]);
    assert.ok(!("VM.Allocate" in res.json.data["/vms"]), "the user has it, the token does not");
  });

  it("a token may not read its own user's permissions without Sys.Audit on /access", async () => {
    const res = await dump(token, { userid: "ops@pve" });
    assert.equal(res.status, 403);
    assert.match(res.reason, /Permission check failed \(\/access, Sys\.Audit\)/);
  });

  it("an unknown user or token holds nothing: an empty answer, not an error", async () => {
    assert.deepEqual((await dump(root, { userid: "nobody@pve!none" })).json.data, {});
    assert.deepEqual((await dump(root, { userid: "nobody@pve" })).json.data, {});
    assert.deepEqual((await dump(root, { userid: "nobody@pve", path: "/vms" })).json.data, { "/vms": {} });
  });

  it("path= is answered under the key as given", async () => {
    const res = await dump(root, { userid: "ops@pve", path: "/vms/" });
    assert.deepEqual(Object.keys(res.json.data), ["/vms/"]);
    assert.ok("VM.Allocate" in res.json.data["/vms/"]);
  });
});
