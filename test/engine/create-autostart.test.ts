import { plannedParams } from "../../src/plan/resolve-call.js";
// A VM the spec wants running is created with start=1; PVE starts it in a qmstart task of its
// own that the create task does not wait for (qemu-server create_vm). pvectl must report the
// VM created only once that start task has ended well, and a failed start as the step's error.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const spec = (vmid: number) => `
vms:
  - vmid: ${vmid}
    name: auto${vmid}
    node: pve1
    power: running
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 2G }
`;

describe("a VM created and started in one step", () => {
  let lab: Lab;
  before(async () => {
    // The start takes 20x the create here: a runner that stopped at the create task would see
    // the VM stopped.
    lab = await startLab({ timing: "realistic", timeScale: 0.01, workersPerNode: 4, durations: { create: 3, start: 30 } });
  });
  after(async () => lab.close());

  it("is reported created only once the qmstart task PVE began has run it", async () => {
    const { plan, report } = await converge(lab, spec(330));
    const create = plan.guests[0]!.steps[0]!.calls[0]!;
    assert.equal(plannedParams(create).start, 1);
    assert.equal(report.guests[0]!.result, "created", JSON.stringify(report.guests[0]));
    const status = (await lab.client.request("GET", "/nodes/pve1/qemu/330/status/current")) as { status: string };
    assert.equal(status.status, "running");
    const tasks = (await lab.client.request("GET", "/nodes/pve1/tasks", { vmid: 330 })) as Array<{ type: string; status?: string }>;
    assert.deepEqual(tasks.map((t) => [t.type, t.status]).sort(), [
      ["qmcreate", "OK"],
      ["qmstart", "OK"],
    ]);
  });

  it("reports a start that fails as the create step's error, and keeps the VM", async () => {
    lab.sim.admin.failTasks({ type: "qmstart", vmid: 331, message: "start failed: QEMU exited with code 1" });
    const { report } = await converge(lab, spec(331));
    const result = report.guests[0]!;
    assert.notEqual(result.result, "created");
    assert.match(result.error ?? "", /created, but PVE's start of it failed: .*QEMU exited with code 1/);
    const listed = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; status: string }>;
    assert.equal(listed.find((g) => g.vmid === 331)?.status, "stopped");
  });
});
