// A VM created with start=1 is started by a task of its own, as qemu-server does. Derived from
// qemu-server's PVE/API2/Qemu.pm, create_vm (no recorded task list of such a create exists in
// /work/shared/fixtures): the qmcreate worker writes the config, releases the create lock,
// prints "Execute autostart" and calls the vm_start API, which forks a `qmstart` worker (its
// own duration, its own worker slot) and returns its UPID without waiting; a failing start is
// only warned about, so the create task ends OK and the VM stays, stopped.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { type Credentials, call, login, startHttpSim } from "./platform-helpers.js";

interface TaskEntry {
  upid: string;
  type: string;
  id: string;
  status?: string;
  starttime: number;
  endtime?: number;
}

async function tasksOf(sim: RunningSimulator, auth: Credentials, vmid: number): Promise<TaskEntry[]> {
  return (await call(sim, "GET", "/nodes/pve1/tasks", { auth, params: { source: "all", vmid } })).json.data;
}

async function waitTask(sim: RunningSimulator, auth: Credentials, upid: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const s = (await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth })).json.data;
    if (s.status === "stopped") return s.exitstatus;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`task ${upid} did not end`);
}

async function vmStatus(sim: RunningSimulator, auth: Credentials, vmid: number): Promise<string> {
  return (await call(sim, "GET", `/nodes/pve1/qemu/${vmid}/status/current`, { auth })).json.data.status;
}

describe("qemu create with start=1 (qemu-server create_vm: Execute autostart)", () => {
  let sim: RunningSimulator;
  let auth: Credentials;
  before(async () => {
    // A create takes about 30 ms here, the start it begins about 1 s: long enough to see the
    // VM stopped after its create task has ended.
    sim = await startHttpSim({ nodes: 1, timing: "realistic", timeScale: 0.01, durations: { start: 100 } });
    auth = await login(sim);
  });
  after(async () => {
    await sim?.close();
  });

  it("ends qmcreate first; a separate qmstart task runs the VM afterwards", async () => {
    const created = await call(sim, "POST", "/nodes/pve1/qemu", { auth, params: { vmid: 100, scsi0: "local-lvm:1", start: 1 } });
    assert.equal(created.status, 200);
    const createUpid: string = created.json.data;
    assert.match(createUpid, /:qmcreate:100:root@pam:$/);
    assert.equal(await waitTask(sim, auth, createUpid), "OK");

    // The create task is over, the guest is not running yet: its start task is.
    assert.equal(await vmStatus(sim, auth, 100), "stopped");
    const during = await tasksOf(sim, auth, 100);
    const start = during.find((t) => t.type === "qmstart");
    assert.ok(start, JSON.stringify(during));
    assert.equal(start.status, "RUNNING", "the start task is still running");
    assert.equal(start.id, "100");
    const log = (await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(createUpid)}/log`, { auth, params: { limit: 100 } })).json
      .data;
    assert.ok(
      log.some((l: { t: string }) => l.t === "Execute autostart"),
      JSON.stringify(log),
    );

    assert.equal(await waitTask(sim, auth, start.upid), "OK");
    assert.equal(await vmStatus(sim, auth, 100), "running");
    const after = await tasksOf(sim, auth, 100);
    assert.deepEqual(after.map((t) => `${t.type}:${t.status}`).sort(), ["qmcreate:OK", "qmstart:OK"]);
    const create = after.find((t) => t.type === "qmcreate")!;
    const started = after.find((t) => t.type === "qmstart")!;
    assert.ok(started.starttime >= create.starttime && started.endtime! >= create.endtime!);
  });

  it("keeps the VM, stopped, when its start fails, and the create task still ends OK", async () => {
    sim.admin.failTasks({ type: "qmstart", vmid: 101, message: "start failed: QEMU exited with code 1" });
    const created = await call(sim, "POST", "/nodes/pve1/qemu", { auth, params: { vmid: 101, scsi0: "local-lvm:1", start: 1 } });
    assert.equal(await waitTask(sim, auth, created.json.data), "OK");
    const start = (await tasksOf(sim, auth, 101)).find((t) => t.type === "qmstart");
    assert.ok(start);
    assert.equal(await waitTask(sim, auth, start.upid), "start failed: QEMU exited with code 1");
    assert.equal(await vmStatus(sim, auth, 101), "stopped");
  });

  it("starts nothing without start=1", async () => {
    const created = await call(sim, "POST", "/nodes/pve1/qemu", { auth, params: { vmid: 102, scsi0: "local-lvm:1" } });
    assert.equal(await waitTask(sim, auth, created.json.data), "OK");
    assert.deepEqual(
      (await tasksOf(sim, auth, 102)).map((t) => t.type),
      ["qmcreate"],
    );
    assert.equal(await vmStatus(sim, auth, 102), "stopped");
  });
});
