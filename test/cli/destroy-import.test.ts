import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = `version: 1
vms:
  - vmid: 250
    name: old1
    node: pve3
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
`;

describe("pvectl import and destroy", () => {
  let lab: CliLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("cli-d", { seed: 4 });
    ({ dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    const created = await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
  });
  after(async () => {
    await lab.close();
  });

  it("import writes a spec with the vmid that plans empty", async () => {
    const out = join(dir, "imported.yaml");
    const result = await pvectl(["import", "--vmid", "250", "-o", out], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(out, "utf8"), /^version: 1\nvms:\n {2}- vmid: 250\n {4}name: old1\n {4}node: pve3\n/);
    const plan = await pvectl(["plan", "-f", out, "--detailed-exitcode"], env);
    assert.equal(plan.code, 0, plan.stdout);
  });

  it("destroy names the volume and holds back without --allow-data-loss (exit 3), then destroys with it", async () => {
    const held = await pvectl(["destroy", "-f", join(dir, "spec.yaml"), "--yes"], env);
    assert.equal(held.code, 3, held.stderr);
    assert.match(
      held.stdout,
      /- destroy old1 \(vmid 250\) and its volumes local-lvm:vm-250-disk-0 {2}\[data-loss-risk\]\n {8}destroys volume local-lvm:vm-250-disk-0\n/,
    );
    assert.match(held.stdout, /skipped {3}old1 {2}vmid 250 {2}node pve3\n/);
    const done = await pvectl(["destroy", "-f", join(dir, "spec.yaml"), "--yes", "--allow-data-loss"], env);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /destroyed old1 {2}vmid 250 {2}node pve3\n/);
  });
});
