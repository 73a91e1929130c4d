// One listing checks one path per guest. The checks of a request share their work (guests
// without an ACL entry of their own are evaluated once per pool); the result must stay what
// each guest's own walk over the ACL gives.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, createToken, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

describe("/cluster/resources for a user and a privilege-separated token", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
    for (const vmid of [100, 101, 102, 103, 104, 105]) {
      const res = await call(sim, "POST", "/nodes/pve1/qemu", { auth: root, params: { vmid, memory: 512 } });
      assert.equal(res.status, 200);
    }
    await sim.admin.waitForTasks();
    assert.equal((await call(sim, "POST", "/pools", { auth: root, params: { poolid: "web" } })).status, 200);
    assert.equal((await call(sim, "PUT", "/pools", { auth: root, params: { poolid: "web", vms: "102,103" } })).status, 200);
  });
  after(() => sim.close());

  async function listed(auth: Credentials): Promise<number[]> {
    const res = await call(sim, "GET", "/cluster/resources", { auth, params: { type: "vm" } });
    assert.equal(res.status, 200);
    return (res.json.data as Array<{ vmid: number }>).map((r) => r.vmid);
  }

  it("shows the guests granted on their own path or through their pool, and hides the others", async () => {
    const user = await createUser(sim, root, "audit@pve");
    const token = await createToken(sim, root, "audit@pve", "inv", 1);
    const both: Array<Record<string, string>> = [{ users: "audit@pve" }, { tokens: "audit@pve!inv" }];
    for (const who of both) {
      await grant(sim, root, "/vms/100", "PVEAuditor", who);
      await grant(sim, root, "/pool/web", "PVEAuditor", who);
    }
    // the user alone also sees everything below /vms, except 103, which says NoAccess
    await grant(sim, root, "/vms", "PVEAuditor", { users: "audit@pve" });
    await grant(sim, root, "/vms/103", "NoAccess", { users: "audit@pve" });
    assert.deepEqual(await listed(user), [100, 101, 102, 104, 105]);
    // the token holds only what both it and its user hold
    assert.deepEqual(await listed(token), [100, 102]);
    assert.deepEqual(await listed(root), [100, 101, 102, 103, 104, 105]);
  });
});
