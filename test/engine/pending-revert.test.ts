import { plannedParams } from "../../src/plan/resolve-call.js";
// A change pending on a key whose value in effect is already the spec's (live cores 2, pending
// cores 3, spec 2) is reverted: one configuration step, no change written for the reboot and no
// reboot (PVE drops a pending value equal to the current one). For VMs and containers.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const VM = `vms:
  - { vmid: 620, name: rv620, node: pve1, power: running, cores: 2, memory: 512 }
`;
const CT = `containers:
  - { vmid: 621, hostname: rv621, node: pve1, power: running, timezone: UTC, ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: { storage: local-lvm, size: 2G } }
`;

describe("a pending change the spec undoes is reverted, not rebooted for", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  const pendingOf = async (path: string) =>
    ((await lab.client.request("GET", path)) as Array<{ key: string; pending?: unknown; delete?: number }>)
      .filter((e) => e.pending !== undefined || e.delete !== undefined)
      .map((e) => e.key);

  for (const [what, yaml, config, change] of [
    ["a VM (cores)", VM, "/nodes/pve1/qemu/620", { cores: 3 }],
    ["a container (timezone)", CT, "/nodes/pve1/lxc/621", { timezone: "Europe/Berlin" }],
  ] as const) {
    it(`${what}: one configuration step that reverts the key; no reboot; then nothing pending and an empty plan`, async () => {
      const made = await converge(lab, yaml, { allowRestart: true, verifyConvergence: true });
      assert.equal(made.report.ok, true, JSON.stringify(made.report.guests));
      await lab.client.request("PUT", `${config}/config`, change);
      assert.deepEqual(await pendingOf(`${config}/pending`), Object.keys(change), "someone left a change pending");
      const { plan } = await planSpec(lab.client, parseSpec(yaml, "test.yaml"));
      const steps = plan.guests[0]!.steps;
      assert.deepEqual(
        steps.map((s) => [s.action, s.severity, s.calls.map((c) => plannedParams(c))]),
        [["config", "configuration", [{ revert: Object.keys(change)[0] }]]],
      );
      assert.match(steps[0]!.summary, /^revert the pending change of /);
      // Without --allow-restart: nothing is held back, the revert runs.
      const { report } = await converge(lab, yaml, { verifyConvergence: true });
      assert.equal(report.ok, true, JSON.stringify(report.guests));
      assert.deepEqual(report.guests[0]!.pending, []);
      assert.deepEqual(await pendingOf(`${config}/pending`), []);
      assert.deepEqual((await planSpec(lab.client, parseSpec(yaml, "test.yaml"))).plan.guests[0]!.steps, []);
    });
  }
});
