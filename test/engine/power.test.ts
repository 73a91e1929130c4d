import { plannedParams, plannedRequest } from "../../src/plan/resolve-call.js";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const spec = (power: string) => `
vms:
  - vmid: 270
    name: pw
    node: pve2
    power: ${power}
    memory: 512
`;

async function status(lab: Lab): Promise<string> {
  return ((await lab.client.request("GET", "/nodes/pve2/qemu/270/status/current")) as { status: string }).status;
}

describe("power steps", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
    assert.equal((await applyPlan(lab.client, (await buildPlan(lab.client, desired(spec("running")))).plan, fastApply)).ok, true);
  });
  after(async () => lab.close());

  it("stops gracefully with the shutdown timeout; forced off only when asked", async () => {
    const { plan: graceful } = await buildPlan(lab.client, desired(spec("stopped")), { shutdownTimeoutSeconds: 30 });
    const stop = graceful.guests[0]!.steps[0]!;
    assert.equal(stop.action, "stop");
    assert.deepEqual(plannedRequest(stop.calls[0]!), {
      method: "POST",
      path: "/nodes/pve2/qemu/270/status/shutdown",
      params: { timeout: 30 },
      intent: { kind: "qemu", op: "power", action: "shutdown" },
    });
    const { plan: forced } = await buildPlan(lab.client, desired(spec("stopped")), { shutdownTimeoutSeconds: 30, forceStop: true });
    assert.deepEqual(plannedParams(forced.guests[0]!.steps[0]!.calls[0]!), { timeout: 30, forceStop: 1 });
    assert.match(forced.guests[0]!.steps[0]!.summary, /graceful shutdown, forced off after 30s/);

    const report = await applyPlan(lab.client, graceful, { ...fastApply, allowRestart: true });
    assert.equal(report.guests[0]!.result, "changed", report.guests[0]!.error);
    assert.equal(await status(lab), "stopped");
  });

  it("starts a stopped guest the spec wants running (a configuration step, no --allow-restart needed)", async () => {
    const { plan } = await buildPlan(lab.client, desired(spec("running")));
    assert.deepEqual(
      plan.guests[0]!.steps.map((s) => [s.action, s.severity]),
      [["start", "configuration"]],
    );
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.guests[0]!.result, "changed");
    assert.equal(await status(lab), "running");
    assert.deepEqual((await buildPlan(lab.client, desired(spec("running")))).plan.guests[0]!.steps, []);
  });
});
