// Property: for random specs (cores, memory, power, pool, tags, snapshot retention, a pool the
// spec's access section creates) applied one after the other to the same guest under random
// guard rails, a run whose steps all ran or were held back never gets "not converged" from
// its final read-back: the read-back only finds steps the plan had and held back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { ApplyPlanOptions } from "../../src/app/apply-plan.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const SEED = 6106;
const NUM_RUNS = 12;

interface Entry {
  cores: number;
  memory: number;
  power?: "running" | "stopped";
  pool?: string;
  tags?: string[];
  keep?: number;
}

const entry: fc.Arbitrary<Entry> = fc.record(
  {
    cores: fc.integer({ min: 1, max: 3 }),
    memory: fc.constantFrom(512, 1024),
    power: fc.constantFrom("running" as const, "stopped" as const),
    pool: fc.constantFrom("prod", "dev", "made"),
    tags: fc.subarray(["web", "db", "blue"]),
    keep: fc.integer({ min: 0, max: 2 }),
  },
  { requiredKeys: ["cores", "memory"] },
);

const guards: fc.Arbitrary<ApplyPlanOptions> = fc.constantFrom(
  {},
  { allowRestart: true },
  { deferRestart: true },
  { allowRestart: true, allowDataLoss: true },
);

function spec(vmid: number, e: Entry): string {
  const lines = [`vms:`, `  - vmid: ${vmid}`, `    name: rb${vmid}`, `    node: pve1`, `    cores: ${e.cores}`, `    memory: ${e.memory}`];
  if (e.power !== undefined) lines.push(`    power: ${e.power}`);
  if (e.pool !== undefined) lines.push(`    pool: ${e.pool}`);
  if (e.tags !== undefined) lines.push(`    tags: [${e.tags.join(", ")}]`);
  if (e.keep !== undefined) lines.push(`    snapshots: { keep: ${e.keep}, prefix: auto- }`);
  lines.push(`access:`, `  pools:`, `    - id: made`, `      comment: made by the spec`);
  return `${lines.join("\n")}\n`;
}

describe("apply's read-back reports no step the plan did not have (property, through the simulator)", () => {
  let lab: Lab;
  let next = 700;
  before(async () => {
    lab = await startLab();
    for (const poolid of ["prod", "dev"]) await lab.client.request("POST", "/pools", { poolid });
  });
  after(async () => lab.close());

  it(`holds for ${NUM_RUNS} pairs of random specs and guard rails (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(entry, entry, guards, fc.integer({ min: 0, max: 2 }), async (first, second, guard, snapshots) => {
        const vmid = next++;
        for (const [yaml, options] of [
          [spec(vmid, first), { allowRestart: true }],
          [spec(vmid, second), guard],
        ] as const) {
          const { plan, report } = await converge(lab, yaml, { ...options, verifyConvergence: true });
          assert.deepEqual(plan.preflightErrors, []);
          for (const g of [...report.guests, ...(report.objects ?? [])]) {
            if (g.steps.some((s) => s.status === "failed")) continue;
            assert.equal(g.error, undefined, `${JSON.stringify(g.steps.map((s) => [s.summary, s.status]))}`);
          }
          // Snapshots someone took between the runs: the second spec's retention prunes them.
          for (let i = 0; yaml === spec(vmid, first) && i < snapshots; i++) {
            await lab.client.waitForTask(
              (await lab.client.request("POST", `/nodes/pve1/qemu/${vmid}/snapshot`, { snapname: `auto-${i}` })) as string,
            );
          }
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
