// A guest's node as desired state: a changed `node:` migrates the guest (online with its local
// disks for a running VM, by a restart for a running container, offline when stopped), every
// later step runs on the target, the placement record follows, and the next plan is empty.
// A guest someone else moved is left where it is unless --placement spec says otherwise.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planSpec } from "../../src/app/plan-spec.js";
import type { PlanOptions } from "../../src/engine/plan.js";
import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { fastApply, type Lab, startLab } from "../support/engine-lab.js";
import { listedGuest, migrateBehindOurBack } from "../support/placement.js";

function plan(lab: Lab, yaml: string, options: PlanOptions = {}) {
  return planSpec(lab.client, parseSpec(yaml, "test.yaml"), options);
}

const vm = (node: string, power: string, extra = "") => `
vms:
  - vmid: 410
    name: mig-web
    node: ${node}
    power: ${power}
    memory: 1024
${extra}    disks:
      scsi0: { storage: local-lvm, size: 4G }
    nics:
      net0: { bridge: vmbr0 }
`;

const ct = (node: string, extra = "") => `
containers:
  - vmid: 420
    name: mig-ct
    node: ${node}
    power: running
    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst
${extra}    rootfs: { storage: local-lvm, size: 2G }
    nics:
      net0: { name: eth0, bridge: vmbr0 }
`;

describe("migration to the spec's node", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("records the node on create, moves a running VM online with its local disk, runs later steps on the target, and converges", async () => {
    const created = await plan(lab, vm("pve1", "running"));
    assert.equal((await applyPlan(lab.client, created, fastApply)).ok, true);
    assert.ok((await listedGuest(lab, 410))?.tags?.split(";").includes("pvectl-node.pve1"));

    const moved = await plan(lab, vm("pve2", "running", "    onboot: true\n"));
    const steps = moved.plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => [s.action, s.severity]),
      [
        ["migrate", "configuration"],
        ["record-placement", "configuration"],
        ["config", "configuration"],
      ],
    );
    assert.match(steps[0]!.summary, /^migrate mig-web pve1 → pve2 \(online: .*; copies scsi0 4 GiB on local-lvm\)$/);
    assert.equal(plannedPath(steps[0]!.calls[0]!), "/nodes/pve1/qemu/410/migrate");
    assert.deepEqual(plannedParams(steps[0]!.calls[0]!), { target: "pve2", online: 1, "with-local-disks": 1 });
    // Everything after the migration names the target.
    for (const step of steps.slice(1)) assert.equal(plannedPath(step.calls[0]!), "/nodes/pve2/qemu/410/config");

    const report = await applyPlan(lab.client, moved, fastApply);
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal(report.guests[0]!.node, "pve2");
    const listed = await listedGuest(lab, 410);
    assert.equal(listed?.node, "pve2");
    assert.equal(listed?.status, "running");
    assert.ok(listed?.tags?.split(";").includes("pvectl-node.pve2"));
    assert.ok(!listed?.tags?.split(";").includes("pvectl-node.pve1"));
    assert.deepEqual((await plan(lab, vm("pve2", "running", "    onboot: true\n"))).plan.guests[0]!.steps, []);
  });

  it("moves a stopped guest offline", async () => {
    assert.equal(
      (await applyPlan(lab.client, await plan(lab, vm("pve2", "stopped", "    onboot: true\n")), { ...fastApply, allowRestart: true })).ok,
      true,
    );
    const moved = await plan(lab, vm("pve3", "stopped", "    onboot: true\n"));
    const migrate = moved.plan.guests[0]!.steps[0]!;
    assert.equal(migrate.severity, "configuration");
    assert.match(migrate.summary, /\(offline; copies scsi0/);
    assert.deepEqual(plannedParams(migrate.calls[0]!), { target: "pve3" });
    assert.equal((await applyPlan(lab.client, moved, fastApply)).ok, true);
    assert.equal((await listedGuest(lab, 410))?.node, "pve3");
  });

  it("moves a running container by a restart: service-impact, held back (with every later step) without --allow-restart", async () => {
    assert.equal((await applyPlan(lab.client, await plan(lab, ct("pve1")), fastApply)).ok, true);
    const moved = await plan(lab, ct("pve2", "    cores: 2\n"));
    const steps = moved.plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => [s.action, s.severity]),
      [
        ["migrate", "service-impact"],
        ["record-placement", "configuration"],
        ["config", "configuration"],
      ],
    );
    assert.match(steps[0]!.summary, /\(restart: .*down meanwhile; copies rootfs 2 GiB on local-lvm\)/);
    assert.deepEqual(plannedParams(steps[0]!.calls[0]!), { target: "pve2", restart: 1 });

    const held = await applyPlan(lab.client, moved, fastApply);
    assert.equal(held.guests[0]!.steps.filter((s) => s.status === "skipped").length, 3);
    assert.equal((await listedGuest(lab, 420))?.node, "pve1");

    const report = await applyPlan(lab.client, await plan(lab, ct("pve2", "    cores: 2\n")), { ...fastApply, allowRestart: true });
    assert.equal(report.ok, true, report.guests[0]!.error);
    const listed = await listedGuest(lab, 420);
    assert.equal(listed?.node, "pve2");
    assert.equal(listed?.status, "running");
    assert.deepEqual((await plan(lab, ct("pve2", "    cores: 2\n"))).plan.guests[0]!.steps, []);
  });

  it("leaves a guest someone else moved where it is; --placement spec moves it back; following the move in the spec rewrites the record", async () => {
    await migrateBehindOurBack(lab, "qemu", 410, "pve3", "pve1");
    const left = await plan(lab, vm("pve3", "stopped", "    onboot: true\n"));
    const guest = left.plan.guests[0]!;
    assert.deepEqual(guest.steps, []);
    assert.deepEqual(guest.movedElsewhere, { specNode: "pve3", liveNode: "pve1" });
    assert.match(guest.warnings.join("\n"), /runs on pve1, the spec says pve3, where pvectl placed it: someone else moved it/);

    const back = await plan(lab, vm("pve3", "stopped", "    onboot: true\n"), { placement: "spec" });
    assert.deepEqual(
      back.plan.guests[0]!.steps.map((s) => s.action),
      ["migrate", "record-placement"],
    );

    const followed = await plan(lab, vm("pve1", "stopped", "    onboot: true\n"));
    const steps = followed.plan.guests[0]!.steps;
    assert.deepEqual(
      steps.map((s) => s.action),
      ["record-placement"],
    );
    assert.equal((await applyPlan(lab.client, followed, fastApply)).ok, true);
    assert.deepEqual((await plan(lab, vm("pve1", "stopped", "    onboot: true\n"))).plan.guests[0]!.steps, []);
  });

  it("says so when there is no placement record, and moves such a guest only with --placement spec", async () => {
    await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 430, name: "old-vm", tags: "pvectl", memory: 512 });
    const spec = "vms:\n  - { vmid: 430, name: old-vm, node: pve2, memory: 512 }\n";
    const left = await plan(lab, spec);
    assert.deepEqual(left.plan.guests[0]!.steps, []);
    assert.match(left.plan.guests[0]!.warnings.join("\n"), /pvectl has no placement record for it .*--placement spec to move it to pve2/);
    const moved = await plan(lab, spec, { placement: "spec" });
    assert.deepEqual(
      moved.plan.guests[0]!.steps.map((s) => s.action),
      ["migrate", "record-placement"],
    );
    assert.equal((await applyPlan(lab.client, moved, fastApply)).ok, true);
    assert.equal((await listedGuest(lab, 430))?.node, "pve2");
    assert.deepEqual((await plan(lab, spec)).plan.guests[0]!.steps, []);
  });
});
