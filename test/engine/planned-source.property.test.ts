// A template this same plan creates is predicted from its planned calls (what its clones are
// planned against); the prediction must be what PVE then holds: for random template specs,
// every disk (storage, size, options), NIC (model, bridge, options) and option of the predicted
// guest is what the simulator reads back after the apply, and the only keys it has beyond the
// prediction are those PVE generates itself.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { readGuest } from "../../src/engine/cluster.js";
import { buildPlan } from "../../src/engine/plan.js";
import { predictSource } from "../../src/engine/planned-source.js";
import type { LiveVm } from "../../src/resources/qemu/model.js";
import { applyPlan } from "../../src/engine/apply.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SEED = 5151;
const NUM_RUNS = 12;
/** Keys PVE writes on create by itself: a clone copies them, and no spec entry can ask for them to differ. */
const PVE_GENERATED = new Set(["boot", "meta", "smbios1", "vmgenid"]);

const disk = fc.record({
  size: fc.integer({ min: 1, max: 8 }),
  opts: fc.constantFrom("", ", discard: true", ", cache: writeback, discard: true"),
});
const templateSpec = fc.record({
  memory: fc.constantFrom(512, 1024, 2048),
  cores: fc.integer({ min: 1, max: 4 }),
  disks: fc.uniqueArray(fc.tuple(fc.constantFrom("scsi0", "scsi1", "virtio0", "sata0"), disk), {
    minLength: 1,
    maxLength: 3,
    selector: ([slot]) => slot,
  }),
  nics: fc.uniqueArray(fc.tuple(fc.constantFrom("net0", "net1"), fc.constantFrom("vmbr0", "vmbr1"), fc.constantFrom("virtio", "e1000")), {
    maxLength: 2,
    selector: ([slot]) => slot,
  }),
  cloudInit: fc.boolean(),
  tags: fc.constantFrom("", "tags: [base, linux]"),
});

type TemplateSpec = typeof templateSpec extends fc.Arbitrary<infer T> ? T : never;

function specOf(vmid: number, t: TemplateSpec): string {
  const lines = [
    "vms:",
    `  - vmid: ${vmid}`,
    `    name: tpl-${vmid}`,
    "    node: pve1",
    "    template: true",
    `    memory: ${t.memory}`,
    `    cores: ${t.cores}`,
    ...(t.tags ? [`    ${t.tags}`] : []),
    "    disks:",
    ...t.disks.map(([slot, d]) => `      ${slot}: { storage: local-lvm, size: ${d.size}G${d.opts} }`),
    ...(t.nics.length > 0
      ? ["    nics:", ...t.nics.map(([slot, bridge, model]) => `      ${slot}: { bridge: ${bridge}, model: ${model} }`)]
      : []),
    ...(t.cloudInit ? ["    cloudInit: { storage: local-lvm, user: debian }"] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/** What a clone copies of a VM, volume names aside (a clone's are new ones). */
function copied(vm: LiveVm) {
  return {
    template: vm.template,
    status: vm.status,
    tags: vm.tags,
    disks: Object.fromEntries(Object.entries(vm.disks).map(([slot, { volume: _v, ...d }]) => [slot, d])),
    nics: Object.fromEntries(Object.entries(vm.nics).map(([slot, { macaddr: _m, ...n }]) => [slot, n])),
  };
}

describe("a template's prediction from its planned calls", () => {
  let lab: Lab;
  let vmid = 9800;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("is what PVE holds once the plan ran", async () => {
    await fc.assert(
      fc.asyncProperty(templateSpec, async (t) => {
        vmid += 1;
        const spec = specOf(vmid, t);
        const { plan, context } = await buildPlan(lab.client, desired(spec), { skipPreflight: true });
        const predicted = predictSource(plan.guests[0]!, context.live) as LiveVm;
        assert.equal(typeof predicted, "object", String(predicted));
        const report = await applyPlan(lab.client, plan, fastApply);
        assert.equal(report.ok, true, JSON.stringify(report.guests));
        const live = (await readGuest(lab.client, {
          vmid,
          type: "qemu",
          node: "pve1",
          status: "stopped",
          tags: [],
          template: true,
        })) as LiveVm;
        assert.deepEqual(copied(predicted), copied(live), spec);
        const extra = Object.keys(live.options).filter((k) => !(k in predicted.options));
        assert.deepEqual(
          extra.filter((k) => !PVE_GENERATED.has(k)),
          [],
          spec,
        );
        for (const [key, value] of Object.entries(predicted.options)) assert.equal(live.options[key], value, `${key} in\n${spec}`);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
