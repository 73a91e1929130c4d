// `pvectl snapshot ...` end to end against the simulator: the plan is shown before anything
// runs, the guard rails and the preflight refuse as documented, --json carries what was skipped.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = `version: 1
vms:
  - name: snapa
    node: pve1
    memory: 512
    disks:
      scsi0: { storage: local-lvm, size: 1G }
containers:
  - name: snapct
    node: pve2
    ostemplate: local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst
    rootfs: { storage: local-lvm, size: 2G }
`;

describe("pvectl snapshot", () => {
  let lab: CliLab;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let spec: string;
  before(async () => {
    lab = await startCliLab("cli-snap", { seed: 4 });
    ({ dir } = lab);
    env = lab.env;
    spec = join(dir, "spec.yaml");
    writeFileSync(spec, SPEC);
    const created = await pvectl(["apply", "-f", spec, "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
  });
  after(async () => {
    await lab.close();
  });

  it("create shows the plan with its severity, snapshots a VM and a container, and list shows them", async () => {
    const made = await pvectl(["snapshot", "create", "first", "-f", spec, "--yes"], env);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /take snapshot 'first' of snapa {2}\[configuration\]/);
    assert.match(made.stdout, /take snapshot 'first' of snapct {2}\[configuration\]/);
    const listed = await pvectl(["snapshot", "list", "-f", spec, "--json"], env);
    assert.equal(listed.code, 0, listed.stderr);
    const json = JSON.parse(listed.stdout) as { guests: Array<{ name: string; snapshots: Array<{ name: string }> }> };
    assert.deepEqual(
      json.guests.map((g) => [g.name, g.snapshots.map((s) => s.name)]),
      [
        ["snapa", ["first"]],
        ["snapct", ["first"]],
      ],
    );
    const table = await pvectl(["snapshot", "list", "--name", "snapa"], env);
    assert.match(table.stdout, /^VMID +GUEST +NODE +SNAPSHOT +TAKEN/m);
    assert.match(table.stdout, /snapa +pve1 +first +\d{4}-/);
  });

  it("refuses a name PVE refuses before reading anything, and a taken name in the preflight unless a rerun made it", async () => {
    const bad = await pvectl(["snapshot", "create", "9lives", "-f", spec, "--yes"], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /must start with a letter/);
    const taken = await pvectl(["snapshot", "create", "first", "--name", "snapa", "--description", "not the first", "--yes"], env);
    assert.equal(taken.code, 1);
    assert.match(taken.stdout, /snapa already has a snapshot named 'first' that this command did not make/);
    const rerun = await pvectl(["snapshot", "create", "first", "--name", "snapa", "--yes"], env);
    assert.equal(rerun.code, 0, rerun.stdout);
    assert.match(rerun.stdout, /already done: snapa has snapshot 'first'/);
    assert.match(taken.stdout, /nothing will run/);
  });

  it("--dry-run --detailed-exitcode plans without changing anything, with skipped guests in --json", async () => {
    const dry = await pvectl(["snapshot", "create", "second", "--all", "--dry-run", "--detailed-exitcode", "--json"], env);
    assert.equal(dry.code, 2, dry.stderr);
    const json = JSON.parse(dry.stdout) as {
      plan: { guests: Array<{ name: string }> };
      skipped: Array<{ vmid: number; reason: string }>;
      notFound: string[];
    };
    assert.deepEqual(json.plan.guests.map((g) => g.name).sort(), ["snapa", "snapct"]);
    for (const s of json.skipped) assert.match(s.reason, /not created by pvectl|template/);
    const listed = await pvectl(["snapshot", "list", "--name", "snapa", "--json"], env);
    assert.doesNotMatch(listed.stdout, /"second"/);
  });

  it("delete and prune are data-loss-risk: held back (exit 3) without --allow-data-loss, each snapshot named", async () => {
    await pvectl(["snapshot", "create", "auto-x", "--name", "snapa", "--yes"], env);
    const held = await pvectl(["snapshot", "prune", "--keep", "0", "--prefix", "auto-", "--name", "snapa", "--yes"], env);
    assert.equal(held.code, 3, held.stderr);
    assert.match(held.stdout, /delete snapshot 'auto-x' of snapa \(beyond the newest 0 named 'auto-\*'\).* {2}\[data-loss-risk\]/);
    assert.doesNotMatch(held.stdout, /'first'/, "a snapshot without the prefix is never in a prune");
    const done = await pvectl(["snapshot", "delete", "auto-x", "--name", "snapa", "--yes", "--allow-data-loss"], env);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /delete snapshot 'auto-x' of snapa: the state it holds is gone for good {2}\[data-loss-risk\]/);
  });

  it("--all asks for confirmation: without a terminal and without --yes nothing runs", async () => {
    const result = await pvectl(["snapshot", "create", "third", "--all"], env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /refusing to snapshot without confirmation/);
  });

  it("refuses bad --keep and --min-free values with what to give instead", async () => {
    const keep = await pvectl(["snapshot", "prune", "--keep", "-1", "--all", "--yes"], env);
    assert.match(keep.stderr, /--keep must be a whole number/);
    const free = await pvectl(["snapshot", "create", "fourth", "--all", "--min-free", "150%", "--yes"], env);
    assert.match(free.stderr, /--min-free must be a percentage from 0 to 100/);
  });

  it("a vmid the cluster does not have is reported as not found", async () => {
    const result = await pvectl(["snapshot", "list", "--vmid", "998", "--json"], env);
    assert.deepEqual((JSON.parse(result.stdout) as { notFound: string[] }).notFound, ["vmid 998"]);
  });
});
