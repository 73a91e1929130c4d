// "No changes: the cluster matches the spec" is never printed next to an error: plan, apply and
// destroy say what failed and exit 1, in text and in --json.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const GUEST = (size: string) => `version: 1
vms:
  - vmid: 250
    name: shrinkme
    node: pve1
    disks:
      scsi0: { storage: local-lvm, size: ${size} }
`;

// A VM with this name exists but pvectl did not create it (no ownership tag): an identity error.
const FOREIGN = `version: 1
vms:
  - name: ghost
    node: pve1
`;

describe("summaries never claim 'no changes' next to errors", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("summary", { https: false, seed: 5 });
    ({ sim, dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "grow.yaml"), GUEST("2G"));
    writeFileSync(join(dir, "shrink.yaml"), GUEST("1G"));
    writeFileSync(join(dir, "foreign.yaml"), FOREIGN);
    const created = await pvectl(["apply", "-f", join(dir, "grow.yaml"), "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
    const client = new PveClient({ host: "127.0.0.1", port: sim.port, protocol: "http", user: "root@pam", password: sim.rootPassword });
    try {
      await client.request("POST", "/nodes/pve1/qemu", { vmid: 251, name: "ghost" });
    } finally {
      await client.close();
    }
  });
  after(async () => {
    await lab.close();
  });

  it("plan: a guest error is named in the summary, exit 1", async () => {
    const result = await pvectl(["plan", "-f", join(dir, "shrink.yaml")], env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /error: scsi0: shrinking from 2 GiB to 1 GiB is refused/);
    assert.doesNotMatch(result.stdout, /No changes/);
    assert.match(
      result.stdout,
      /Not converged: 1 guest\(s\) with errors \(their steps do not run\); fix what is listed above and run again\.\n$/,
    );
    const json = await pvectl(["plan", "-f", join(dir, "shrink.yaml"), "--json"], env);
    assert.equal(json.code, 1);
    assert.doesNotMatch(json.stdout, /No changes/);
  });

  it("apply: the plan and the report say what failed, exit 1 (text and --json)", async () => {
    const result = await pvectl(["apply", "-f", join(dir, "shrink.yaml"), "--yes"], env);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout, /No changes/);
    assert.match(result.stdout, /Not converged: 1 guest\(s\) with errors/);
    assert.match(result.stdout, /Apply finished with errors in [\d.]+s: 1 failed\./);
    const json = await pvectl(["apply", "-f", join(dir, "shrink.yaml"), "--yes", "--json"], env);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as { ok: boolean; guests: Array<{ result: string; error?: string }> };
    assert.equal(report.ok, false);
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(report.guests[0]!.error ?? "", /shrinking/);
  });

  it("destroy: a guest that cannot be identified is an error, not 'no changes', exit 1", async () => {
    const result = await pvectl(["destroy", "-f", join(dir, "foreign.yaml"), "--allow-data-loss", "--yes"], env);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout, /No changes/);
    assert.match(result.stdout, /Not converged: 1 guest\(s\) with errors/);
    const json = await pvectl(["destroy", "-f", join(dir, "foreign.yaml"), "--allow-data-loss", "--yes", "--json"], env);
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.stdout) as { ok: boolean }).ok, false);
  });

  it("a plan without errors and without steps still says 'No changes'", async () => {
    const result = await pvectl(["plan", "-f", join(dir, "grow.yaml")], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /No changes: the cluster matches the spec\.\n$/);
  });
});
