// No silent adoption: a spec vmid that names a running guest pvectl did not create (no
// `pvectl` tag) is refused in the plan, for changes and for destroy, unless the spec entry
// says `adopt: true` or the run allows it (PlanOptions.adopt, `--adopt`). An adopted guest
// gets the ownership tag as a step of its own and keeps its other tags.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { PreflightFailedError } from "../../src/engine/errors.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import { selectGuests } from "../../src/engine/show.js";
import { stringify } from "yaml";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const FOREIGN = { vmid: 310, name: "prod-db", tags: "db;prod", memory: 4096, net0: "virtio,bridge=vmbr0", start: 1 };

/** The spec a colleague might write for the vmid someone else already uses. */
const HIJACK = (extra = "") => `vms:
  - vmid: 310
    name: web9
    node: pve1
    memory: 1024
${extra}`;

async function config(lab: Lab, vmid: number): Promise<Record<string, string | number>> {
  return (await lab.client.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, string | number>;
}

describe("adoption of guests pvectl did not create", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());
  beforeEach(async () => {
    // A fresh foreign guest for every test (made as another tool would: no pvectl tag).
    const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; status: string }>;
    for (const g of guests) {
      if (g.status === "running")
        await lab.client.waitForTask((await lab.client.request("POST", `/nodes/pve1/qemu/${g.vmid}/status/stop`)) as string);
      await lab.client.waitForTask((await lab.client.request("DELETE", `/nodes/pve1/qemu/${g.vmid}`)) as string);
    }
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu", FOREIGN)) as string);
  });

  it("refuses a spec vmid that names a foreign guest, naming its vmid, name, node and tags and how to adopt", async () => {
    const { plan } = await buildPlan(lab.client, desired(HIJACK()));
    assert.deepEqual(plan.guests[0]!.steps, [], "nothing is planned for the foreign guest");
    assert.match(
      plan.guests[0]!.errors[0] ?? "",
      /^left alone: vmid 310 was not created by pvectl/,
      "the guest shows as refused, not as `no changes`",
    );
    assert.deepEqual(
      plan.preflightErrors.map((p) => [p.kind, p.guest]),
      [["adoption", "web9"]],
    );
    const message = plan.preflightErrors[0]!.message;
    for (const part of ["vmid 310", "name prod-db", "node pve1", "tags: db;prod", "adopt: true", "--adopt"]) {
      assert.ok(message.includes(part), `the message names ${part}: ${message}`);
    }
    await assert.rejects(applyPlan(lab.client, plan, fastApply), PreflightFailedError);
    const after = await config(lab, 310);
    assert.equal(after.name, "prod-db", "not renamed");
    assert.equal(after.tags, "db;prod", "tags untouched");
    assert.equal(String(after.memory), "4096", "memory untouched");
  });

  it("with `adopt: true` plans the ownership tag as its own step first, keeps the other tags, and converges", async () => {
    const { plan } = await buildPlan(lab.client, desired(HIJACK("    adopt: true\n")));
    assert.deepEqual(plan.preflightErrors, []);
    const steps = plan.guests[0]!.steps;
    assert.equal(steps[0]!.action, "adopt");
    assert.match(steps[0]!.summary, /^adopt: add tag pvectl/);
    assert.deepEqual(steps[0]!.changes, [{ field: "tags", before: "db;prod", after: "db;prod;pvectl" }]);
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowRestart: true });
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    const after = await config(lab, 310);
    assert.equal(after.tags, "db;prod;pvectl");
    assert.equal(after.name, "web9");
    const { plan: rerun } = await buildPlan(lab.client, desired(HIJACK()));
    assert.deepEqual(rerun.preflightErrors, [], "once adopted, the guest is pvectl's: no `adopt` needed any more");
    assert.deepEqual(rerun.guests[0]!.steps, []);
  });

  it("the run-wide option (--adopt) allows it too", async () => {
    const { plan } = await buildPlan(lab.client, desired(HIJACK()), { adopt: true });
    assert.deepEqual(plan.preflightErrors, []);
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["adopt", "config", "config-pending", "reboot"],
    );
  });

  it("destroy of a foreign guest is refused the same way (plan `state: absent` and `pvectl destroy`)", async () => {
    const { plan: absent } = await buildPlan(lab.client, desired(HIJACK("    state: absent\n")));
    assert.deepEqual(absent.guests[0]!.steps, []);
    assert.match(absent.preflightErrors[0]?.message ?? "", /will not destroy it silently/);
    const destroy = await buildDestroyPlan(lab.client, { desired: desired(HIJACK()) });
    assert.deepEqual(destroy.guests[0]!.steps, []);
    assert.deepEqual(
      destroy.preflightErrors.map((p) => p.kind),
      ["adoption"],
    );
    await assert.rejects(applyPlan(lab.client, destroy, { ...fastApply, allowDataLoss: true, allowRestart: true }), PreflightFailedError);
    assert.equal((await config(lab, 310)).name, "prod-db", "still there");
    const allowed = await buildDestroyPlan(lab.client, { desired: desired(HIJACK("    adopt: true\n")) });
    assert.deepEqual(
      allowed.guests[0]!.steps.map((s) => s.action),
      ["stop", "destroy"],
    );
  });

  it("after a create race, the guest someone else created under the vmid is not renamed", async () => {
    const spec = desired("vms:\n  - vmid: 320\n    name: fresh\n    node: pve1\n    memory: 1024\n");
    const { plan } = await buildPlan(lab.client, spec);
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.action),
      ["create"],
    );
    // Between plan and apply another tool takes vmid 320.
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 320, name: "theirs", tags: "other" })) as string,
    );
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, false);
    assert.match(report.guests[0]!.error ?? "", /already exists/);
    assert.equal((await config(lab, 320)).name, "theirs", "the other guest is left as it is");
    const { plan: replan } = await buildPlan(lab.client, spec);
    assert.deepEqual(replan.guests[0]!.steps, [], "the next plan does not rename it either");
    assert.deepEqual(
      replan.preflightErrors.map((p) => p.kind),
      ["adoption"],
    );
  });

  it("import writes `adopt: true` for a guest pvectl did not create; the plan of that spec is exactly the adoption", async () => {
    const shown = await selectGuests(lab.client, { vmids: [310] });
    assert.equal(shown.vms[0]!.adopt, true);
    const { plan } = await buildPlan(lab.client, desired(stringify({ version: 1, vms: shown.vms })));
    assert.deepEqual(plan.preflightErrors, []);
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => s.summary),
      ["adopt: add tag pvectl (vmid 310 was not created by pvectl; its other tags stay)"],
    );
  });
});
