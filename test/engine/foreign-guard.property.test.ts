// The blast-radius guard, as a property: a random cluster of guests pvectl owns (its tag) and
// guests it does not, a random spec naming them by vmid or by name, present (with a change) or
// absent, some entries with `adopt: true`; planned and applied as root with every guard flag
// (--allow-data-loss, --allow-restart). Whatever root could do, a foreign guest that no entry
// adopted by vmid still exists, with its config unchanged.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { PreflightFailedError } from "../../src/engine/errors.js";
import { converge, type Lab, startLab } from "../support/engine-lab.js";

const SEED = 1616;
const NUM_RUNS = 12;

interface Guest {
  owned: boolean;
  name: string;
}
interface Entry {
  /** Which guest it names (index), and how. */
  target: number;
  byVmid: boolean;
  absent: boolean;
  adopt: boolean;
}

const guests = fc.array(fc.record({ owned: fc.boolean(), name: fc.constantFrom("app", "db", "cache") }), { minLength: 1, maxLength: 4 });
const entries = fc.array(
  fc.record({ target: fc.nat(3), byVmid: fc.boolean(), absent: fc.boolean(), adopt: fc.constantFrom(false, false, false, true) }),
  { maxLength: 4 },
);

function specOf(base: number, live: Guest[], wanted: Entry[]): string {
  const lines = ["vms:"];
  const used = new Set<string>();
  for (const e of wanted) {
    const g = live[e.target % live.length]!;
    const vmid = base + (e.target % live.length);
    // Names are unique in a spec: an entry by vmid gets its own (a rename, refused like any change).
    const name = e.byVmid ? `${g.name}-${vmid}` : g.name;
    if (used.has(name)) continue;
    used.add(name);
    lines.push(`  - name: ${name}`, "    node: pve1");
    if (e.byVmid) lines.push(`    vmid: ${vmid}`);
    if (e.absent) lines.push("    state: absent");
    else lines.push("    memory: 1024");
    if (e.adopt) lines.push("    adopt: true");
  }
  return lines.length > 1 ? `${lines.join("\n")}\n` : "vms: []\n";
}

describe("a foreign guest is never changed or destroyed without adopt", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(async () => lab.close());

  it("holds for random clusters and specs, applied as root with every guard flag", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(guests, entries, async (live, wanted) => {
        const base = 1000 + 10 * run++;
        for (const [i, g] of live.entries()) {
          const upid = await lab.client.request("POST", "/nodes/pve1/qemu", {
            vmid: base + i,
            name: g.name,
            memory: 512,
            tags: g.owned ? "pvectl" : "ops",
          });
          await lab.client.waitForTask(upid as string);
        }
        const yaml = specOf(base, live, wanted);
        const adoptedByVmid = new Set(wanted.filter((e) => e.byVmid && e.adopt).map((e) => base + (e.target % live.length)));
        try {
          await converge(lab, yaml, { allowDataLoss: true, allowRestart: true });
        } catch (err) {
          // A refusal before anything runs is the guard working (a foreign vmid in the spec).
          if (!(err instanceof PreflightFailedError)) throw err;
          assert.match(err.message, /pvectl did not create/);
        }
        for (const [i, g] of live.entries()) {
          const vmid = base + i;
          if (g.owned || adoptedByVmid.has(vmid)) continue;
          const config = (await lab.client.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as {
            memory?: number | string;
            tags?: string;
          };
          assert.equal(String(config.memory), "512", `${yaml}vmid ${vmid} (foreign) was changed`);
          assert.equal(config.tags, "ops", `${yaml}vmid ${vmid} (foreign) was tagged`);
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
