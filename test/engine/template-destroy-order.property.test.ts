// Destroying templates with their linked clones takes one run: for random estates (templates on
// thin LVM or on a directory storage, each clone linked to one of them, running or stopped, VMs
// and containers), one destroy of the whole spec, or one apply of it with `state: absent` on
// every entry, reports every guest destroyed and leaves none, and each template's plan names
// exactly its clones as the guests it goes after.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planDestroy } from "../../src/app/destroy.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SEED = 2929;
const NUM_RUNS = 8;
const CT_TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";

const estate = fc.record({
  templates: fc.array(fc.record({ storage: fc.constantFrom("local-lvm", "files"), kind: fc.constantFrom("vm", "ct") }), {
    minLength: 1,
    maxLength: 2,
  }),
  clones: fc.array(fc.record({ of: fc.nat(), running: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  absent: fc.boolean(),
});
type Estate = typeof estate extends fc.Arbitrary<infer T> ? T : never;

/** The estate's spec (vmids from `base`), and which clones each template has. */
function specOf(e: Estate, base: number, absent: boolean): { yaml: string; clonesOf: Map<string, string[]> } {
  const vms: string[] = [];
  const cts: string[] = [];
  const clonesOf = new Map<string, string[]>();
  const state = absent ? "\n    state: absent" : "";
  e.templates.forEach((t, i) => {
    const name = `tpl${base + i}`;
    clonesOf.set(name, []);
    if (t.kind === "vm")
      vms.push(
        `  - vmid: ${base + i}\n    name: ${name}\n    node: pve1${state}\n    template: true\n    memory: 512\n    disks:\n      scsi0: { storage: ${t.storage}, size: 1G }\n`,
      );
    // Containers on a directory storage are raw files, which cannot be linked: thin LVM only.
    else
      cts.push(
        `  - vmid: ${base + i}\n    hostname: ${name}\n    node: pve1${state}\n    template: true\n    ostemplate: "${CT_TEMPLATE}"\n    rootfs: { storage: local-lvm, size: 1G }\n`,
      );
  });
  e.clones.forEach((c, j) => {
    const i = c.of % e.templates.length;
    const from = `tpl${base + i}`;
    const name = `clone${base + 10 + j}`;
    clonesOf.get(from)!.push(name);
    const power = c.running ? "\n    power: running" : "";
    const entry = `  - vmid: ${base + 10 + j}\n    ${e.templates[i]!.kind === "vm" ? "name" : "hostname"}: ${name}\n    node: pve1${state}${absent ? "" : power}\n    clone: { from: ${from}, full: false }\n`;
    (e.templates[i]!.kind === "vm" ? vms : cts).push(entry);
  });
  const section = (key: string, entries: string[]) => (entries.length > 0 ? `${key}:\n${entries.join("")}` : "");
  return { yaml: section("vms", vms) + section("containers", cts), clonesOf };
}

describe("templates and their linked clones are destroyed in one run", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab({
      config: {
        storages: [
          { id: "local", type: "dir", content: ["iso", "vztmpl", "import", "snippets"] },
          { id: "local-lvm", type: "lvmthin", content: ["images", "rootdir"] },
          { id: "files", type: "dir", content: ["images"], path: "/mnt/files" },
        ],
        content: [CT_TEMPLATE],
      },
    });
  });
  after(async () => lab.close());

  it("one destroy (or one apply of state: absent) leaves nothing, each template after its clones", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(estate, async (e) => {
        const base = 1000 + 100 * run++;
        const made = await converge(lab, specOf(e, base, false).yaml, { allowRestart: true });
        assert.equal(made.report.ok, true, JSON.stringify(made.report.guests));
        const { yaml, clonesOf } = specOf(e, base, e.absent);
        const planned = e.absent ? undefined : await planDestroy(lab.client, parseSpec(yaml, "test.yaml"));
        const { plan: done, report } = planned
          ? { plan: planned.plan, report: await applyPlan(lab.client, planned, { ...fastApply, allowDataLoss: true, allowRestart: true }) }
          : await converge(lab, yaml, { allowDataLoss: true, allowRestart: true });
        assert.equal(report.ok, true, JSON.stringify(report.guests));
        for (const [template, clones] of clonesOf) {
          const warnings = done.guests.find((g) => g.key === template)!.warnings;
          const expected =
            clones.length > 0
              ? [
                  `destroyed after its linked clones ${clones.join(", ")} in this run: PVE refuses to destroy a template while a linked clone's disk exists`,
                ]
              : [];
          assert.deepEqual(warnings, expected, template);
        }
        const left = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number }>;
        assert.deepEqual(
          left.filter((g) => g.vmid >= base && g.vmid < base + 100),
          [],
        );
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
