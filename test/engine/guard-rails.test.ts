import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildPlan } from "../../src/engine/plan.js";
import { converge, desired, type Lab, startLab } from "../support/engine-lab.js";

const BASE = `
vms:
  - vmid: 150
    name: app1
    node: pve1
    power: running
    memory: 1G
    disks:
      scsi0: { storage: local-lvm, size: 4G }
      scsi1: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0 }
`;

describe("guard rails", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    const { report } = await converge(lab, BASE);
    assert.equal(report.ok, true);
  });
  after(async () => lab.close());

  it("refuses to delete a disk without allowDataLoss, and names the volume", async () => {
    const without = BASE.replace("      scsi1: { storage: local-lvm, size: 2G }\n", "");
    const { plan, report } = await converge(lab, without);
    const step = plan.guests[0]!.steps[0]!;
    assert.equal(step.action, "disk-delete");
    assert.deepEqual(step.deletesVolumes, ["local-lvm:vm-150-disk-1"]);
    const guest = report.guests[0]!;
    assert.equal(guest.result, "skipped");
    assert.deepEqual(guest.pending, ["delete scsi1 and destroy volume local-lvm:vm-150-disk-1 (data-loss-risk: needs --allow-data-loss)"]);
    assert.equal(guest.volumes.scsi1, "local-lvm:vm-150-disk-1", "the volume is still attached");

    const allowed = await converge(lab, without, { allowDataLoss: true });
    assert.equal(allowed.report.guests[0]!.result, "changed");
    assert.equal(allowed.report.guests[0]!.volumes.scsi1, undefined);
    const content = (await lab.client.request("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<{ volid: string }>;
    assert.equal(
      content.some((c) => c.volid === "local-lvm:vm-150-disk-1"),
      false,
      "the volume is gone",
    );
  });

  it("leaves a change that needs a reboot pending without allowRestart, then reboots with it", async () => {
    const bigger = BASE.replace("memory: 1G", "memory: 2G").replace("      scsi1: { storage: local-lvm, size: 2G }\n", "");
    const first = await converge(lab, bigger);
    assert.deepEqual(
      first.plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [
        ["config-pending", "service-impact"],
        ["reboot", "service-impact"],
      ],
    );
    assert.equal(first.report.guests[0]!.pending.length, 2);
    const config = (await lab.client.request("GET", "/nodes/pve1/qemu/150/config")) as { memory: string | number };
    assert.equal(String(config.memory), "1024", "nothing was written");

    const second = await converge(lab, bigger, { allowRestart: true });
    assert.equal(second.report.guests[0]!.result, "changed");
    const pending = (await lab.client.request("GET", "/nodes/pve1/qemu/150/pending")) as Array<{ key: string; pending?: unknown }>;
    assert.equal(pending.filter((e) => e.pending !== undefined).length, 0, "the reboot applied the pending change");
    const { plan: empty } = await buildPlan(lab.client, desired(bigger));
    assert.deepEqual(empty.guests[0]!.steps, []);
  });

  it("destroys only with allowDataLoss (and stops a running guest only with allowRestart)", async () => {
    const absent = `
vms:
  - vmid: 150
    name: app1
    node: pve1
    state: absent
`;
    const refused = await converge(lab, absent, { allowRestart: true });
    assert.deepEqual(
      refused.report.guests[0]!.steps.map((s) => [s.action, s.status]),
      [
        ["stop", "skipped"],
        ["destroy", "skipped"],
      ],
    );
    const status = (await lab.client.request("GET", "/nodes/pve1/qemu/150/status/current")) as { status: string };
    assert.equal(status.status, "running", "the guest was not stopped for a destroy that is refused");

    const done = await converge(lab, absent, { allowRestart: true, allowDataLoss: true });
    assert.equal(done.report.guests[0]!.result, "destroyed");
    assert.deepEqual(done.plan.guests[0]!.steps[1]!.deletesVolumes, ["local-lvm:vm-150-disk-0"]);
    const { plan: again } = await buildPlan(lab.client, desired(absent));
    assert.deepEqual(again.guests[0]!.steps, []);
  });
});
