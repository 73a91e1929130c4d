// POST /nodes/{node}/migrateall over HTTP: one migrateall task migrating the node's guests
// (running VMs online, running containers in restart mode, HA-managed guests through HA),
// skipping a VM that fails PVE's precondition check with a warning, at most max-workers at once.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { type Credentials, call, createUser, grant, login, startHttpSim } from "./platform-helpers.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

describe("migrateall", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  const api = async (method: string, path: string, params: Record<string, string | number> = {}, auth = root) => {
    const res = await call(sim, method, path, { auth, params });
    await sim.admin.waitForTasks();
    return res;
  };
  before(async () => {
    sim = await startHttpSim({ nodes: 3 });
    root = await login(sim);
  });
  after(async () => {
    await sim?.close();
  });

  it("moves every guest of the node, HA ones through HA, and skips a running VM with local disks", async () => {
    for (const vmid of [100, 101, 102]) await api("POST", "/nodes/pve1/qemu", { vmid, scsi0: "local-lvm:1" });
    await api("POST", "/nodes/pve1/lxc", { vmid: 200, ostemplate: TEMPLATE, rootfs: "local-lvm:1" });
    await api("POST", "/nodes/pve1/qemu/101/status/start");
    await api("POST", "/nodes/pve1/lxc/200/status/start");
    await api("POST", "/cluster/ha/resources", { sid: "vm:102", state: "stopped" });
    const missing = await api("POST", "/nodes/pve1/migrateall", { target: "pve2" });
    assert.equal(missing.status, 500);
    assert.equal(missing.json.message, "either 'max-workers' parameter or max_workers in datacenter.cfg must be set!\n");
    const res = await api("POST", "/nodes/pve1/migrateall", { target: "pve2", "max-workers": 2 });
    const upid = res.json.data as string;
    assert.match(upid, /:migrateall::root@pam:$/);
    const status = (await api("GET", `/nodes/pve1/tasks/${upid}/status`)).json.data;
    const log = ((await api("GET", `/nodes/pve1/tasks/${upid}/log`, { limit: 100 })).json.data as Array<{ t: string }>).map((l) => l.t);
    assert.equal(status.exitstatus, "WARNINGS: 1", log.join("\n"));
    assert.ok(log.includes("skip VM 101 - precondition check failed:"), log.join("\n"));
    assert.ok(log.includes("WARN:   Has local disks: local-lvm:vm-101-disk-0"), log.join("\n"));
    assert.ok(log.includes("All jobs finished, used 3 workers in total."), log.join("\n"));
    const guests = (await api("GET", "/cluster/resources", { type: "vm" })).json.data as Array<{
      vmid: number;
      node: string;
      status: string;
    }>;
    const where = Object.fromEntries(guests.map((g) => [g.vmid, [g.node, g.status]]));
    assert.deepEqual(where, {
      100: ["pve2", "stopped"],
      101: ["pve1", "running"],
      102: ["pve2", "stopped"],
      200: ["pve2", "running"],
    });
    const tasks = (await api("GET", "/cluster/tasks")).json.data as Array<{ type: string; id: string }>;
    const types = tasks.map((t) => `${t.type}:${t.id}`);
    for (const expected of ["qmigrate:100", "hamigrate:102", "qmigrate:102", "vzmigrate:200"])
      assert.ok(types.includes(expected), types.join(" "));
  });

  it("needs VM.Migrate on / or on every guest named in vms", async () => {
    await api("POST", "/nodes/pve2/qemu", { vmid: 300 });
    const user = await createUser(sim, root, "mover@pve");
    await grant(sim, root, "/vms/300", "PVEVMAdmin", { users: "mover@pve" });
    const denied = await api("POST", "/nodes/pve2/migrateall", { target: "pve3", "max-workers": 1 }, user);
    assert.equal(denied.status, 403);
    const allowed = await api("POST", "/nodes/pve2/migrateall", { target: "pve3", "max-workers": 1, vms: "300" }, user);
    assert.equal(allowed.status, 200, allowed.text);
    const guests = (await api("GET", "/cluster/resources", { type: "vm" })).json.data as Array<{ vmid: number; node: string }>;
    assert.equal(guests.find((g) => g.vmid === 300)?.node, "pve3");
  });
});

describe("migrateall with realistic timing", () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await startHttpSim({ nodes: 2, timing: "realistic", timeScale: 0.002, workersPerNode: 2 });
  });
  after(async () => {
    await sim?.close();
  });

  it("runs max-workers migrations at once and takes no worker slot itself", async () => {
    const root = await login(sim);
    for (const vmid of [100, 101, 102, 103, 104]) {
      await call(sim, "POST", "/nodes/pve1/qemu", { auth: root, params: { vmid, scsi0: "local-lvm:1" } });
    }
    await sim.admin.waitForTasks();
    sim.admin.resetTaskLoad();
    const res = await call(sim, "POST", "/nodes/pve1/migrateall", { auth: root, params: { target: "pve2", "max-workers": 2 } });
    assert.equal(res.status, 200, res.text);
    await sim.admin.waitForTasks(30_000);
    const load = sim.admin.taskLoad().nodes.pve1;
    assert.equal(load?.peakRunning, 2, "two migrations at once, the migrateall task not among them");
    assert.equal(load?.peakInFlight, 2, "never more submitted than max-workers");
    const guests = (await call(sim, "GET", "/cluster/resources", { auth: root, params: { type: "vm" } })).json.data as Array<{
      node: string;
    }>;
    assert.deepEqual(
      guests.map((g) => g.node),
      ["pve2", "pve2", "pve2", "pve2", "pve2"],
    );
  });
});
