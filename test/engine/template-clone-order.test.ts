// A template and its clones in one spec: the clones wait for the run after the one that
// creates or converts their source (guests run side by side, with no order between them), and
// say so; the source's own steps are not held up by a preflight problem of its clones.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { planSpec } from "../../src/app/plan-spec.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildDestroyPlan } from "../../src/engine/plan.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, desired, fastApply, type Lab, startLab } from "./helpers.js";

const SPEC = (base: string, clone = "{ from: base, full: false }") => `
vms:
  - vmid: 9000
    name: base
    node: pve1
    ${base}
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
  - vmid: 9001
    name: web1
    node: pve1
    clone: ${clone}
`;

const work = (plan: { guests: Array<{ key: string; steps: Array<{ action: string }>; errors: string[] }> }) =>
  plan.guests.map((g) => [g.key, g.steps.map((s) => s.action), g.errors]);

describe("a template and its clones in one spec", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("a new template is made in the first run, its clone in the second; then nothing is left", async () => {
    const first = await converge(lab, SPEC("template: true"));
    assert.deepEqual(work(first.plan), [
      ["base", ["create", "template"], []],
      ["web1", [], ["clone.from: base is created by this same plan, and guests run side by side (the clone would race it): apply this plan, then apply again to clone web1 from it"]],
    ]);
    assert.deepEqual(first.plan.preflightErrors, []);
    assert.equal(first.report.guests.find((g) => g.key === "base")!.result !== "failed", true);
    const second = await converge(lab, SPEC("template: true"));
    assert.equal(second.report.ok, true, JSON.stringify(second.report.guests));
    assert.deepEqual(work(second.plan).map(([key, actions]) => [key, actions]), [
      ["base", []],
      ["web1", ["clone"]],
    ]);
    const cfg = (await lab.client.request("GET", "/nodes/pve1/qemu/9001/config")) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), /^local-lvm:base-9000-disk-0\/vm-9001-disk-0,/);
    const third = (await planSpec(lab.client, parseSpec(SPEC("template: true"), "test.yaml"))).plan;
    assert.deepEqual(work(third), [
      ["base", [], []],
      ["web1", [], []],
    ]);
  });

  it("a guest converted in this run does not block the run with its linked clone's preflight problem", async () => {
    const spec = SPEC("template: true", "{ from: 9100, full: false }").replaceAll("9000", "9100").replaceAll("9001", "9101").replace("name: base", "name: base2").replace("name: web1", "name: web2");
    assert.equal((await converge(lab, spec.replace("template: true", "power: stopped").replace(/ {2}- vmid: 9101[\s\S]*/, ""))).report.ok, true);
    const first = await converge(lab, spec);
    assert.deepEqual(first.plan.preflightErrors, [], "the linked clone of a guest not yet a template waits, rather than failing preflight");
    assert.deepEqual(work(first.plan).map(([key, actions]) => [key, actions]), [
      ["base2", ["template"]],
      ["web2", []],
    ]);
    assert.match(first.plan.guests[1]!.errors[0]!, /^clone.from: base2 is converted to a template by this same plan/);
    assert.equal(((await lab.client.request("GET", "/nodes/pve1/qemu/9100/config")) as Record<string, unknown>).template, 1);
    const second = await converge(lab, spec);
    assert.equal(second.report.ok, true, JSON.stringify(second.report.guests));
    assert.deepEqual(second.plan.guests[1]!.steps.map((s) => s.action), ["clone"]);
  });

  it("destroying a template with its linked clone: the clone goes first, the template in the next run, each said", async () => {
    const spec = SPEC("template: true").replaceAll("9000", "9200").replaceAll("9001", "9201").replace("name: base", "name: base3").replace("name: web1", "name: web3").replace("from: base,", "from: base3,");
    await converge(lab, spec);
    assert.equal((await converge(lab, spec)).report.ok, true);
    const destroy = async () => {
      const plan = await buildDestroyPlan(lab.client, { desired: desired(spec) });
      return { plan, report: await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true, allowRestart: true }) };
    };
    const first = await destroy();
    assert.deepEqual(work(first.plan), [
      [
        "base3",
        [],
        [
          "its linked clones web3 are destroyed by this same plan, and PVE refuses to destroy a template while a linked clone's disk exists (guests run side by side): destroy again once they are gone",
        ],
      ],
      ["web3", ["destroy"], []],
    ]);
    assert.equal(first.report.guests.find((g) => g.key === "web3")?.result, "destroyed");
    const second = await destroy();
    assert.deepEqual(work(second.plan), [["base3", ["destroy"], []]]);
    assert.equal(second.report.guests[0]?.result, "destroyed");
  });
});
