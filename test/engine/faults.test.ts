import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { converge, desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const vm = (vmid: number, name: string, node = "pve1", memory = "512") => `
  - vmid: ${vmid}
    name: ${name}
    node: ${node}
    memory: ${memory}
    disks:
      scsi0: { storage: local-lvm, size: 1G }
    nics:
      net0: { bridge: vmbr0 }`;

async function guests(lab: Lab): Promise<Array<{ vmid: number; name?: string; lock?: string }>> {
  return (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name?: string }>;
}

async function volumes(lab: Lab, node: string): Promise<string[]> {
  const content = (await lab.client.request("GET", `/nodes/${node}/storage/local-lvm/content`)) as Array<{ volid: string }>;
  return content.map((c) => c.volid).sort();
}

async function apply(lab: Lab, yaml: string) {
  return (await converge(lab, yaml)).report;
}

describe("injected faults", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => lab.close());

  it("retries a create answered with 500 and creates the guest once", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", status: 500, message: "temporary failure", times: 2 });
    const report = await apply(lab, `vms:${vm(230, "f500")}`);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal(report.guests[0]!.steps[0]!.attempts, 3);
    assert.deepEqual(
      (await guests(lab)).map((g) => g.vmid),
      [230],
    );
  });

  it("reports a failed create task with PVE's message, leaves nothing behind, and does not stop the other guests", async () => {
    lab.sim.admin.failTasks({ type: "qmcreate", vmid: 231, message: "storage allocation failed: out of space" });
    const report = await apply(lab, `vms:${vm(231, "ftask")}${vm(232, "fine", "pve2")}`);
    const failed = report.guests.find((g) => g.key === "ftask")!;
    assert.equal(failed.result, "failed");
    assert.match(
      failed.error ?? "",
      /^create ftask on pve1 \(vmid 231\): task qmcreate 231 on node pve1 failed: storage allocation failed: out of space/,
    );
    const fine = report.guests.find((g) => g.key === "fine")!;
    assert.equal(fine.result, "created", fine.error);
    assert.deepEqual(
      (await guests(lab)).map((g) => g.vmid),
      [232],
    );
    assert.deepEqual(await volumes(lab, "pve1"), [], "no orphaned volume on pve1");
    lab.sim.admin.clearFaults();
    const rerun = await apply(lab, `vms:${vm(231, "ftask")}${vm(232, "fine", "pve2")}`);
    assert.deepEqual(
      rerun.guests.map((g) => g.result),
      ["created", "unchanged"],
    );
  });

  it("waits for a held lock and retries, then succeeds once it is released", async () => {
    await apply(lab, `vms:${vm(233, "locked")}`);
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(233, "locked", "pve1", "1024")}`));
    // A backup takes the lock between plan and apply, and finishes once apply was refused by it
    // (released at the first retry, not after a fixed time that a slow machine could outlast).
    lab.sim.admin.holdLock(233, "backup");
    const onEvent = (e: { type: string }) => {
      if (e.type === "retry") lab.sim.admin.releaseLock(233);
    };
    const report = await applyPlan(lab.client, plan, {
      ...fastApply,
      onEvent,
      retry: { maxAttempts: 40, baseDelayMs: 10, maxDelayMs: 50 },
    });
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.ok((report.guests[0]!.steps[0]!.attempts ?? 0) > 1, "the change was retried while the lock was held");
  });

  it("gives up on a lock that stays held, with PVE's reason", async () => {
    await apply(lab, `vms:${vm(234, "stuck")}`);
    lab.sim.admin.holdLock(234, "backup");
    const report = await apply(lab, `vms:${vm(234, "stuck", "pve1", "1024")}`);
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(report.guests[0]!.error ?? "", /VM is locked \(backup\)/);
  });

  it("after a dropped connection, adopts the guest its first create made instead of creating another", async () => {
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(235, "dropped")}`));
    // The guest exists as if apply's first POST had been handled before its connection dropped.
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu", {
        vmid: 235,
        name: "dropped",
        tags: "pvectl",
        memory: "512",
        scsi0: "local-lvm:1",
        net0: "model=virtio,bridge=vmbr0",
      })) as string,
    );
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", drop: true, times: 1 });
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal(report.guests[0]!.result, "created");
    assert.deepEqual(
      (await guests(lab)).map((g) => g.vmid),
      [235],
      "one guest, not two",
    );
    assert.deepEqual(await volumes(lab, "pve1"), ["local-lvm:vm-235-disk-0"], "one volume, not two");
  });

  it("retries a config change whose connection dropped, and adds a disk only once", async () => {
    await apply(lab, `vms:${vm(236, "drop2")}`);
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/236/config$", drop: true, times: 1 });
    const spec = `vms:${vm(236, "drop2")}\n      scsi1: { storage: local-lvm, size: 1G }`.replace(
      "      scsi0: { storage: local-lvm, size: 1G }\n    nics:\n      net0: { bridge: vmbr0 }\n      scsi1: { storage: local-lvm, size: 1G }",
      "      scsi0: { storage: local-lvm, size: 1G }\n      scsi1: { storage: local-lvm, size: 1G }\n    nics:\n      net0: { bridge: vmbr0 }",
    );
    const report = await apply(lab, spec);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.deepEqual(await volumes(lab, "pve1"), ["local-lvm:vm-236-disk-0", "local-lvm:vm-236-disk-1"]);
    assert.deepEqual((await buildPlan(lab.client, desired(spec))).plan.guests[0]!.steps, []);
  });

  it("a node that goes offline after the plan fails its own guests with a clear error, not the others", async () => {
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(238, "gone", "pve2")}${vm(239, "here", "pve3")}`));
    lab.sim.admin.setNodeOnline("pve2", false);
    try {
      const report = await applyPlan(lab.client, plan, fastApply);
      const gone = report.guests.find((g) => g.key === "gone")!;
      assert.equal(gone.result, "failed");
      assert.match(gone.error ?? "", /^create gone on pve2 \(vmid 238\): .*pve2/);
      assert.equal(report.guests.find((g) => g.key === "here")!.result, "created");
    } finally {
      lab.sim.admin.setNodeOnline("pve2", true);
    }
    assert.deepEqual(
      (await guests(lab)).map((g) => g.vmid),
      [239],
    );
  });

  it("does not create again while an interrupted create is still running", async () => {
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve3/qemu", { vmid: 237 })) as string);
    lab.sim.admin.holdLock(237, "create");
    const { plan } = await buildPlan(lab.client, desired("vms:\n  - name: inflight\n    node: pve3\n"), { createWait: { limitMs: 200 } });
    assert.deepEqual(plan.guests[0]!.errors, [
      "guest(s) 237 on pve3 are being created right now and may be inflight (an interrupted apply); run again once they are finished",
    ]);
  });
});
