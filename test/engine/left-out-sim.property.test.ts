// The left-out property through the simulator (a smaller run than the pure-diff one in
// test/resources): a guest created with a random config, a spec naming vmid, name, node and a
// random subset of keys; the plan buildPlan makes from the live cluster touches nothing else.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { buildPlan } from "../../src/engine/plan.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { specEntry, touched } from "../resources/left-out-model.js";
import { type Lab, startLab } from "../support/engine-lab.js";

const SEED = 4242;
const NUM_RUNS = 15;

/** Create parameters another tool might use (new volumes allocated by the simulator). */
const createParams = fc.record(
  {
    tags: fc.constantFrom("pvectl", "prod;pvectl;web"),
    memory: fc.constantFrom(512, 2048),
    cores: fc.integer({ min: 1, max: 4 }),
    description: fc.constant("made elsewhere"),
    onboot: fc.constantFrom(0, 1),
    startup: fc.constant("order=3"),
    scsi0: fc.constant("local-lvm:1"),
    ide2: fc.constantFrom("local-lvm:cloudinit", "none,media=cdrom"),
    ide3: fc.constant("local:iso/debian.iso,media=cdrom"),
    net0: fc.constantFrom("virtio,bridge=vmbr0", "e1000,bridge=vmbr1,tag=20"),
    ciuser: fc.constant("debian"),
    pool: fc.constantFrom("prod", "dev"),
  },
  { requiredKeys: ["tags"] },
);

describe("a plan touches only what the spec names (property, through the simulator)", () => {
  let lab: Lab;
  let next = 400;
  before(async () => {
    lab = await startLab({ config: { content: ["local:iso/debian.iso"] } });
    for (const poolid of ["prod", "dev"]) await lab.client.request("POST", "/pools", { poolid });
  });
  after(async () => lab.close());

  it(`holds for ${NUM_RUNS} created guests and partial specs (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(createParams, specEntry, async (params, entry) => {
        const vmid = next++;
        await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu", { vmid, name: "web", ...params })) as string);
        const vm = desiredVmFromSpec(parseSpec(JSON.stringify({ vms: [{ ...entry, vmid }] }), "property.yaml").vms[0]!);
        const { plan, context } = await buildPlan(lab.client, [vm], { skipPreflight: true });
        const live = context.live.get(vmid)!;
        if (live.kind === "lxc") throw new Error("a qemu guest read as a container");
        const allowed = new Set(["name", ...Object.keys(entry)]);
        for (const step of plan.guests[0]!.steps) {
          const outside: string[] = touched(step, live, vm).filter((s) => !allowed.has(s));
          assert.deepEqual(outside, [], `step "${step.summary}" touches ${outside.join(", ")}, which the spec leaves out`);
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
