// The CI flow on a bootstrap: a spec with a template and its clone plans as one plan
// (`plan --detailed-exitcode` exits 2, not 1), a saved plan of it applies in one run, and the
// next `plan --detailed-exitcode` exits 0.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl, ROOT, simEnv } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

describe("pvectl plan / apply: a template and its clone in one spec", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("template-clone", { seed: 11 });
    ({ sim, dir } = lab);
    copyFileSync(join(ROOT, "examples/clones.yaml"), join(dir, "clones.yaml"));
    env = simEnv(sim);
  });
  after(async () => {
    await lab.close();
  });

  it("plan --detailed-exitcode exits 2, the saved plan applies both in one run, and the next plan exits 0", async () => {
    const spec = join(dir, "clones.yaml");
    const saved = join(dir, "plan.json");
    const plan = await pvectl(["plan", "-f", spec, "--detailed-exitcode", "--out", saved], env);
    assert.equal(plan.code, 2, plan.stdout + plan.stderr);
    assert.match(plan.stdout, /\+ app1 \(vmid 210\) on pve1\n {4}\+ linked clone of debian-13-tpl \(vmid 9000\) as app1 on pve1/);
    const apply = await pvectl(["apply", "--plan", saved, "--yes", "--allow-restart"], env);
    assert.equal(apply.code, 0, apply.stdout + apply.stderr);
    const again = await pvectl(["plan", "-f", spec, "--detailed-exitcode"], env);
    assert.equal(again.code, 0, again.stdout + again.stderr);
  });
});
