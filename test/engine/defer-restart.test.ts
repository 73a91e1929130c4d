// --defer-restart: changes that wait for a reboot are written now as PVE pending changes, the
// guest keeps running and is not rebooted, the report names its pending keys; --allow-restart
// still reboots.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = (memory: string, cores: number) => `
vms:
  - vmid: 180
    name: maint
    node: pve1
    power: running
    memory: ${memory}
    cores: ${cores}
    disks:
      scsi0: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0 }
`;

async function pendingValues(lab: Lab): Promise<Record<string, unknown>> {
  const entries = (await lab.client.request("GET", "/nodes/pve1/qemu/180/pending")) as Array<{ key: string; pending?: unknown }>;
  return Object.fromEntries(entries.filter((e) => e.pending !== undefined).map((e) => [e.key, String(e.pending)]));
}

async function reboots(lab: Lab): Promise<number> {
  const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 180, source: "all" })) as Array<{ type: string }>;
  return tasks.filter((t) => t.type === "qmreboot" || t.type === "qmshutdown" || t.type === "qmstop").length;
}

describe("apply with deferRestart", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const { report } = await converge(lab, SPEC("1G", 1));
    assert.equal(report.ok, true);
  });
  after(async () => lab.close());

  it("writes the changes as pending, does not reboot, and reports the pending keys", async () => {
    const { plan, report } = await converge(lab, SPEC("2G", 2), { deferRestart: true });
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["config-pending", "reboot"],
    );
    const guest = report.guests[0]!;
    assert.equal(report.ok, true);
    assert.equal(guest.result, "changed");
    assert.deepEqual(
      guest.steps.map((s) => [s.action, s.status]),
      [
        ["config-pending", "done"],
        ["reboot", "skipped"],
      ],
    );
    assert.deepEqual(guest.pendingReboot, ["cores", "memory"]);
    assert.equal(guest.pending.length, 1, "the held-back reboot is listed as pending");
    assert.match(guest.pending[0]!, /deferred \(--defer-restart\)/);
    assert.deepEqual(await pendingValues(lab), { cores: "2", memory: "2048" }, "written to PVE's pending section");
    const status = (await lab.client.request("GET", "/nodes/pve1/qemu/180/status/current")) as { status: string };
    assert.equal(status.status, "running");
    assert.equal(await reboots(lab), 0, "no reboot, shutdown or stop task ran");
  });

  it("a rerun writes nothing more and still lists the keys waiting for the reboot", async () => {
    const { plan, report } = await converge(lab, SPEC("2G", 2), { deferRestart: true });
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["reboot"],
    );
    assert.deepEqual(report.guests[0]!.pendingReboot, ["cores", "memory"]);
    assert.equal(await reboots(lab), 0);
  });

  it("does not run steps that disturb the guest now (a NIC hot-unplug) without allowRestart", async () => {
    const yaml = SPEC("2G", 2).replace("net0: { bridge: vmbr0 }", "net0: { bridge: vmbr0, model: e1000 }");
    const { report } = await converge(lab, yaml, { deferRestart: true });
    const nic = report.guests[0]!.steps.find((s) => s.action === "nic-change")!;
    assert.equal(nic.status, "skipped");
    assert.match(nic.reason ?? "", /needs --allow-restart/);
  });

  it("allowRestart still reboots and applies what was pending", async () => {
    const { report } = await converge(lab, SPEC("2G", 2), { allowRestart: true });
    assert.equal(report.guests[0]!.steps.find((s) => s.action === "reboot")?.status, "done");
    assert.equal(report.guests[0]!.pendingReboot, undefined);
    assert.deepEqual(await pendingValues(lab), {});
    assert.equal(await reboots(lab), 1, "the task list shows the one reboot");
  });
});
