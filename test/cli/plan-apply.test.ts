import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = (memory: string) => `version: 1
vms:
  - vmid: 240
    name: cli1
    node: pve1
    memory: ${memory}
    disks:
      scsi0: { storage: local-lvm, size: 2G }
    nics:
      net0: { bridge: vmbr0 }
`;

describe("pvectl plan / apply on the command line", () => {
  let lab: CliLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("cli", { seed: 3 });
    ({ dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "a.yaml"), SPEC("512"));
    writeFileSync(join(dir, "b.yaml"), SPEC("1024"));
  });
  after(async () => {
    await lab.close();
  });

  it("plan shows the create and exits 2 with --detailed-exitcode; --json is the plan", async () => {
    const human = await pvectl(["plan", "-f", join(dir, "a.yaml"), "--detailed-exitcode"], env);
    assert.equal(human.code, 2, human.stderr);
    assert.match(
      human.stdout,
      /^Target: https:\/\/127\.0\.0\.1:\d+\n\+ cli1 \(vmid 240\) on pve1\n {4}\+ create cli1 on pve1 \(vmid 240\) {2}\[configuration\]\n/,
    );
    assert.match(human.stdout, /Plan: 1 to create, 0 to change, 0 to destroy, 0 unchanged\.\nSteps by severity: 1 configuration\.\n$/);
    const json = await pvectl(["plan", join(dir, "a.yaml"), "--json"], env);
    assert.equal(json.code, 0);
    const plan = JSON.parse(json.stdout) as {
      guests: Array<{ key: string; steps: Array<{ action: string; calls: Array<{ endpoint: string; pathParams: unknown }> }> }>;
    };
    assert.deepEqual(
      plan.guests.map((g) => [g.key, g.steps[0]!.action, g.steps[0]!.calls[0]!.endpoint, g.steps[0]!.calls[0]!.pathParams]),
      [["cli1", "create", "/nodes/{node}/qemu", { node: "pve1" }]],
    );
  });

  it("apply without a terminal refuses unless --yes, then applies, and the next plan is empty (exit 0)", async () => {
    const refused = await pvectl(["apply", "-f", join(dir, "a.yaml")], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /error: refusing to apply without confirmation \(1 step\(s\) would run\) and there is no terminal to ask on\n {2}review the plan, then run again with --yes\n/,
    );
    const applied = await pvectl(["apply", "-f", join(dir, "a.yaml"), "--yes"], env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(
      applied.stdout,
      /created {3}cli1 {2}vmid 240 {2}node pve1\n {10}macs: net0=BC:24:11(:[0-9A-F]{2}){3}\n {10}volumes: scsi0=local-lvm:vm-240-disk-0\n/,
    );
    assert.match(applied.stderr, /^ok cli1: create \(vmid 240\)$/m);
    const again = await pvectl(["plan", "-f", join(dir, "a.yaml"), "--detailed-exitcode"], env);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /= cli1 \(vmid 240\) on pve1: no changes\n/);
  });

  it("a saved plan applies while the guest is unchanged and is refused once it changed", async () => {
    const file = join(dir, "plan.json");
    const saved = await pvectl(["plan", "-f", join(dir, "b.yaml"), "--out", file], env);
    assert.equal(saved.code, 0, saved.stderr);
    const ok = await pvectl(["apply", "--plan", file, "--yes", "--json"], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { guests: Array<{ result: string }> }).guests[0]!.result, "changed");
    // Applying it changed the guest, so the same saved plan is now stale.
    const refused = await pvectl(["apply", "--plan", file, "--yes"], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^error: the saved plan .*plan\.json cannot be applied:\n {2}- cli1 \(vmid 240\) changed since the plan \(config digest [0-9a-f]{12} is now [0-9a-f]{12}\)\n/,
    );
  });

  it("explains a missing spec file argument", async () => {
    const result = await pvectl(["plan"], env);
    assert.equal(result.code, 1);
    assert.equal(result.stderr, "error: no spec file given\n  usage: pvectl plan -f web.yaml [-f more.yaml]\n");
  });
});
