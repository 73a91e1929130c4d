// What `pvectl apply` says at the end, where features cross: a pooled guest created in the same
// run as a deferred reboot elsewhere exits 3 (pending), not 1; an apply that only made access
// objects never says "nothing to do"; and no report summary says so next to a change or an error.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ApplyReport } from "../../src/engine/report.js";
import { renderReport } from "../../src/cli/render/report.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const POOL = `access:
  pools:
    - id: team
      comment: made by the spec
`;

const GUEST = (vmid: number, name: string, memory: number) => `  - vmid: ${vmid}
    name: ${name}
    node: pve1
    power: running
    memory: ${memory}
    pool: team
`;

describe("apply's summary and exit code where features cross", () => {
  let lab: CliLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), `version: 1\n${text}`);
    return join(dir, name);
  };
  before(async () => {
    lab = await startCliLab("readback", { https: false, seed: 11 });
    ({ dir } = lab);
    env = lab.env;
  });
  after(async () => {
    await lab.close();
  });

  it("an apply that only creates access objects says what it made, not 'nothing to do'", async () => {
    const result = await pvectl(["apply", "-f", file("pool.yaml", POOL), "--yes"], env);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /nothing to do/);
    assert.match(result.stdout, /Apply finished in [\d.]+s: 1 created\.\n$/);
  });

  it("creating a pooled guest is ok (exit 0), and --defer-restart with a new pooled guest beside exits 3, not 1", async () => {
    const first = await pvectl(["apply", "-f", file("one.yaml", `${POOL}vms:\n${GUEST(661, "keep1", 512)}`), "--yes"], env);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /created +keep1 +vmid 661/);
    assert.doesNotMatch(first.stdout, /not converged/);
    const both = file("two.yaml", `${POOL}vms:\n${GUEST(661, "keep1", 1024)}${GUEST(662, "keep2", 512)}`);
    const deferred = await pvectl(["apply", "-f", both, "--yes", "--defer-restart"], env);
    assert.equal(deferred.code, 3, deferred.stdout + deferred.stderr);
    assert.doesNotMatch(deferred.stdout, /not converged/);
    assert.match(deferred.stdout, /created +keep2 +vmid 662/);
    assert.match(deferred.stdout, /Waiting for a reboot: keep1\./);
  });

  it("the summary counts objects, and never says 'nothing to do' next to a change or an error", () => {
    const object = (result: "created" | "failed" | "unchanged", error?: string) => ({
      kind: "access-pool",
      key: "team",
      result,
      steps: [],
      pending: [],
      ...(error ? { error } : {}),
    });
    const report = (objects: ApplyReport["objects"], ok: boolean): ApplyReport => ({
      target: "https://pve1:8006",
      guests: [],
      objects,
      elapsedSeconds: 1,
      ok,
    });
    assert.match(renderReport(report([object("created")], true)), /Apply finished in 1s: 1 created\.\n$/);
    assert.match(renderReport(report([object("failed", "refused")], false)), /Apply finished with errors in 1s: 1 failed\.\n$/);
    assert.match(
      renderReport(report([object("created", "not converged: ...")], false)),
      /Apply finished with errors in 1s: 1 created\.\n$/,
    );
    assert.match(renderReport(report([], true)), /Apply finished in 1s: nothing to do\.\n$/);
    assert.doesNotMatch(renderReport(report([], false)), /nothing to do/);
  });
});
