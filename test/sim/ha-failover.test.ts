// The seed's Tuesday afternoon over HTTP: a guest under HA, its node fails (admin API), the HA
// manager recovers it on another node and starts it there; /cluster/ha/status/current and
// manager_status show it in PVE's shapes; the node coming back gets its resource back only
// when a node-affinity rule prefers it (failback).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { adminCall, type Credentials, call, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

type Row = Record<string, unknown>;

describe("HA recovery after a node failure", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  const api = async (method: string, path: string, params: Record<string, string | number> = {}) => {
    const res = await call(sim, method, path, { auth: root, params });
    await sim.admin.waitForTasks();
    assert.equal(res.status, 200, `${method} ${path}: ${res.status} ${res.text}`);
    return res.json.data;
  };
  before(async () => {
    sim = await startHttpSim({ nodes: 3 });
    root = await login(sim);
  });
  after(async () => {
    await sim?.close();
  });

  it("recovers the failed node's resource elsewhere, shows it in the HA status, fails back to the preferred node", async () => {
    assert.deepEqual(
      ((await api("GET", "/cluster/ha/status/current")) as Row[]).map((e) => e.id),
      ["quorum", "fencing"],
      "no HA resource: the CRM is idle, with no master",
    );
    await api("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "shared:4" });
    await api("POST", "/cluster/ha/resources", { sid: "vm:100", comment: "web" });
    await api("POST", "/cluster/ha/rules", { rule: "home", type: "node-affinity", resources: "vm:100", nodes: "pve1:2" });
    let status = (await api("GET", "/cluster/ha/status/current")) as Row[];
    assert.deepEqual(
      status.map((e) => e.id),
      ["quorum", "master", "fencing", "lrm:pve1", "lrm:pve2", "lrm:pve3", "service:vm:100"],
    );
    const service = status.find((e) => e.id === "service:vm:100") as Row;
    assert.deepEqual(service, {
      id: "service:vm:100",
      type: "service",
      sid: "vm:100",
      node: "pve1",
      crm_state: "started",
      state: "started",
      status: "vm:100 (pve1, started)",
      request_state: "started",
      failback: 1,
      max_relocate: 1,
      max_restart: 1,
      comment: "web",
    });
    assert.match(
      String(status.find((e) => e.id === "lrm:pve1")?.status),
      /^pve1 \(active, watchdog active, \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\)$/,
    );

    const failed = await adminCall(sim, "POST", "/nodes/pve1/offline");
    assert.equal(failed.status, 200);
    await sim.admin.waitForTasks();
    const guest = ((await api("GET", "/cluster/resources", { type: "vm" })) as Row[])[0] as Row;
    assert.equal(guest.node, "pve2", "recovered on an online node");
    assert.equal(guest.status, "running", "and started there");
    assert.equal(guest.hastate, "started");
    const nodes = (await api("GET", "/cluster/resources", { type: "node" })) as Row[];
    assert.deepEqual(
      nodes.map((n) => [n.node, n.hastate]),
      [
        ["pve1", "unknown"],
        ["pve2", "online"],
        ["pve3", "online"],
      ],
    );
    const manager = (await api("GET", "/cluster/ha/status/manager_status")) as Row;
    const ms = manager.manager_status as Row;
    assert.equal(ms.master_node, "pve2");
    assert.deepEqual(ms.node_status, { pve1: "unknown", pve2: "online", pve3: "online" });
    assert.deepEqual({ ...((ms.service_status as Row)["vm:100"] as Row), uid: 0 }, { node: "pve2", state: "started", running: 1, uid: 0 });
    assert.deepEqual(Object.keys(manager.lrm_status as Row), ["pve1", "pve2", "pve3"]);
    status = (await api("GET", "/cluster/ha/status/current")) as Row[];
    assert.match(String(status.find((e) => e.id === "lrm:pve1")?.status), /^pve1 \(old timestamp - dead\?, watchdog standby, /);
    const starts = ((await api("GET", "/nodes/pve2/tasks", { source: "all" })) as Row[]).filter((t) => t.type === "qmstart");
    assert.equal(starts.length, 1);
    assert.equal(starts[0]?.user, "root@pam");

    await adminCall(sim, "POST", "/nodes/pve1/online");
    await sim.admin.waitForTasks();
    const back = ((await api("GET", "/cluster/resources", { type: "vm" })) as Row[])[0] as Row;
    assert.equal(back.node, "pve1", "failback: the rule's preferred node is back");
    assert.equal(back.status, "running");
    const migrations = ((await api("GET", "/nodes/pve2/tasks", { source: "all" })) as Row[]).filter((t) => t.type === "qmigrate");
    assert.equal(migrations.length, 1);
  });

  it("HA writes need Sys.Console on /, reads Sys.Audit: a VM admin may do neither", async () => {
    const admin = await createUser(sim, root, "vmadmin@pve");
    await grant(sim, root, "/vms", "PVEVMAdmin", { users: "vmadmin@pve" });
    const write = await call(sim, "POST", "/cluster/ha/rules", {
      auth: admin,
      params: { rule: "x", type: "node-affinity", resources: "vm:100", nodes: "pve1" },
    });
    assert.equal(write.status, 403);
    assert.equal(write.reason, "Permission check failed (/, Sys.Console)");
    const read = await call(sim, "GET", "/cluster/ha/resources", { auth: admin });
    assert.equal(read.status, 403);
  });
});
