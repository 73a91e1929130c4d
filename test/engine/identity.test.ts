import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { vmsWithoutVmids } from "./specs.js";

const NO_VMIDS = vmsWithoutVmids(["a", "b", "c", "d", "e"].map((n) => `node-${n}`));

async function qemuGuests(lab: Lab): Promise<Array<{ vmid: number; name: string; tags?: string }>> {
  return (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name: string; tags?: string }>;
}

describe("identity and vmid allocation", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("allocates distinct vmids for guests created in parallel, and a rerun finds them instead of duplicating", async () => {
    const vms = desired(`vms:${NO_VMIDS}`);
    const { plan } = await buildPlan(lab.client, vms);
    const report = await applyPlan(lab.client, plan, { ...fastApply, perNodeConcurrency: 4 });
    assert.equal(report.ok, true);
    const vmids = report.guests.map((g) => g.vmid);
    assert.equal(new Set(vmids).size, 5, `distinct vmids: ${vmids.join(", ")}`);
    const guests = await qemuGuests(lab);
    assert.equal(guests.length, 5);
    assert.ok(
      guests.every((g) => (g.tags ?? "").split(/[;, ]/).includes("pvectl")),
      "every created guest carries the ownership tag",
    );

    const { plan: rerun } = await buildPlan(lab.client, vms);
    assert.deepEqual(
      rerun.guests.map((g) => [g.key, g.vmid, g.steps.length]),
      report.guests.map((g) => [g.key, g.vmid, 0]),
    );
    assert.equal((await qemuGuests(lab)).length, 5);
  });

  it("refuses to guess when two owned guests share a name", async () => {
    // A second guest named node-a with the ownership tag, made behind pvectl's back.
    const upid = (await lab.client.request("POST", "/nodes/pve2/qemu", { vmid: 900, name: "node-a", tags: "pvectl" })) as string;
    await lab.client.waitForTask(upid);
    const { plan } = await buildPlan(lab.client, desired(`vms:${NO_VMIDS}`));
    const a = plan.guests.find((g) => g.key === "node-a")!;
    assert.deepEqual(a.steps, []);
    assert.match(
      a.errors[0] ?? "",
      /^2 guests are named node-a and tagged pvectl \(\d+ on pve1, 900 on pve2\); add the right vmid to the spec$/,
    );
  });

  it("does not adopt an untagged guest with the same name", async () => {
    const upid = (await lab.client.request("POST", "/nodes/pve3/qemu", { vmid: 901, name: "legacy" })) as string;
    await lab.client.waitForTask(upid);
    const { plan } = await buildPlan(lab.client, desired("vms:\n  - name: legacy\n    node: pve3\n"));
    assert.deepEqual(plan.guests[0]!.errors, [
      "a guest named legacy exists (vmid 901) but was not created by pvectl (no pvectl tag); set `vmid: 901` and `adopt: true` in the spec to manage it, or choose another name",
    ]);
    const { plan: adopted } = await buildPlan(
      lab.client,
      desired("vms:\n  - vmid: 901\n    name: legacy\n    node: pve3\n    memory: 512\n    adopt: true\n"),
    );
    assert.deepEqual(adopted.guests[0]!.errors, []);
    assert.deepEqual(adopted.preflightErrors, []);
    assert.equal(adopted.guests[0]!.exists, true);
  });

  it("two applies racing for the same next vmid both succeed: PVE's create is the atomic check, the loser retries", async () => {
    const { plan: one } = await buildPlan(lab.client, desired("vms:\n  - name: race1\n    node: pve1\n    memory: 512\n"));
    const { plan: two } = await buildPlan(lab.client, desired("vms:\n  - name: race2\n    node: pve2\n    memory: 512\n"));
    const [r1, r2] = await Promise.all([applyPlan(lab.client, one, fastApply), applyPlan(lab.client, two, fastApply)]);
    assert.equal(r1.ok && r2.ok, true, `${r1.guests[0]!.error} ${r2.guests[0]!.error}`);
    assert.notEqual(r1.guests[0]!.vmid, r2.guests[0]!.vmid);
    const attempts = [...r1.guests[0]!.steps, ...r2.guests[0]!.steps].map((s) => s.attempts);
    assert.deepEqual(attempts.sort(), [1, 2], "one create collided and was retried with the next id");
    const names = (await qemuGuests(lab)).map((g) => g.name);
    assert.equal(names.filter((n) => n === "race1" || n === "race2").length, 2);
  });
});
