// `pvectl apply --defer-restart`: pending changes written, no reboot, the report names each
// guest's keys waiting for a reboot, exit code 3.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = (memory: string) => `version: 1
vms:
  - vmid: 245
    name: window1
    node: pve1
    power: running
    memory: ${memory}
    disks:
      scsi0: { storage: local-lvm, size: 2G }
`;

describe("pvectl apply --defer-restart", () => {
  let lab: CliLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("defer", { https: false, seed: 4 });
    ({ dir, env } = lab);
    lab.write("small.yaml", SPEC("1024"));
    lab.write("big.yaml", SPEC("2048"));
    const created = await pvectl(["apply", "-f", join(dir, "small.yaml"), "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
  });
  after(() => lab.close());

  it("refuses --allow-restart together with --defer-restart before reading anything", async () => {
    const result = await pvectl(["apply", "-f", join(dir, "big.yaml"), "--yes", "--allow-restart", "--defer-restart"], env);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--allow-restart and --defer-restart contradict each other/);
  });

  it("writes the change as pending, keeps the guest running, lists its pending keys and exits 3", async () => {
    const result = await pvectl(["apply", "-f", join(dir, "big.yaml"), "--yes", "--defer-restart"], env);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /1 change\(s\) will be written as PVE pending changes and wait for each guest's next reboot/);
    assert.match(result.stdout, /changed {3}window1 {2}vmid 245/);
    assert.match(result.stdout, /waiting for a reboot: memory\n/);
    assert.match(result.stdout, /Waiting for a reboot: window1\./);
    const json = await pvectl(["apply", "-f", join(dir, "big.yaml"), "--yes", "--defer-restart", "--json"], env);
    assert.equal(json.code, 3);
    const report = JSON.parse(json.stdout) as {
      guests: Array<{ pendingReboot?: string[]; steps: Array<{ action: string; status: string }> }>;
    };
    assert.deepEqual(report.guests[0]!.pendingReboot, ["memory"]);
    assert.deepEqual(
      report.guests[0]!.steps.map((s) => [s.action, s.status]),
      [["reboot", "skipped"]],
    );
    const show = await pvectl(["plan", "-f", join(dir, "big.yaml")], env);
    assert.match(show.stdout, /reboot window1 to apply pending changes \(memory\)/, "the guest was not rebooted");
  });
});
