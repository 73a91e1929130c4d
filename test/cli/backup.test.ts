// The backup commands as an operator runs them: backup run prints the plan and each guest's
// archive, list and status print tables or JSON, and the guards answer with what to do.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const SPEC = `version: 1
vms:
  - { vmid: 701, name: web, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 702, name: db, node: pve2, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
`;

describe("pvectl backup and restore", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    lab = await startCliLab("cli-b", { seed: 5 });
    ({ sim, dir } = lab);
    env = lab.env;
    writeFileSync(join(dir, "spec.yaml"), SPEC);
    const created = await pvectl(["apply", "-f", join(dir, "spec.yaml"), "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
  });
  after(async () => {
    await lab.close();
  });

  it("backup run shows the plan, backs up the spec's guests and names each archive", async () => {
    const result = await pvectl(["backup", "run", "-f", join(dir, "spec.yaml"), "--storage", "local", "--yes"], env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /back up web \(vmid 701\) to local \(snapshot mode, zstd\)/);
    assert.match(result.stdout, /backup: archive local:backup\/vzdump-qemu-701-\S+\.vma\.zst/);
    assert.match(result.stdout, /backup: archive local:backup\/vzdump-qemu-702-\S+\.vma\.zst/);
  });

  it("backup list prints each archive, as a table and as JSON", async () => {
    const table = await pvectl(["backup", "list", "--vmid", "701", "702"], env);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^VMID +NAME +ARCHIVE +SIZE +CREATED \(UTC\) +PROTECTED +NOTES\n701 +web +local:backup\/vzdump-qemu-701-/);
    const json = await pvectl(["backup", "list", "--vmid", "701", "702", "--json"], env);
    const listing = JSON.parse(json.stdout) as { archives: Array<{ vmid: number; node: string; protected: boolean }> };
    assert.deepEqual(
      listing.archives.map((a) => [a.vmid, a.node, a.protected]),
      [
        [701, "pve1", false],
        [702, "pve2", false],
      ],
    );
  });

  it("backup status lists the guests no job covers", async () => {
    const json = await pvectl(["backup", "status", "--json"], env);
    assert.equal(json.code, 0, json.stderr);
    const vmids = (JSON.parse(json.stdout) as { notBackedUp: Array<{ vmid: number }> }).notBackedUp.map((g) => g.vmid);
    assert.ok(vmids.includes(701) && vmids.includes(702));
    const table = await pvectl(["backup", "status", "--vmid", "701"], env);
    assert.match(table.stdout, /^1 guest\(s\) in no backup job:\nVMID +NAME +TYPE +NODE\n701 +web +qemu +pve1\n$/);
  });

  it("answers bad input with what to do, and never acts on no selection", async () => {
    const none = await pvectl(["backup", "run", "--storage", "local", "--yes"], env);
    assert.equal(none.code, 1, none.stderr);
    assert.match(none.stderr, /no guests selected/);
    const mode = await pvectl(["backup", "run", "--vmid", "701", "--storage", "local", "--mode", "pause"], env);
    assert.match(mode.stderr, /--mode must be one of snapshot, suspend, stop, got 'pause'/);
    const keep = await pvectl(["backup", "prune", "--vmid", "701", "--storage", "local"], env);
    assert.match(keep.stderr, /backup prune needs a retention/);
    const archive = await pvectl(["restore", "local:iso/x.iso", "--vmid", "760"], env);
    assert.match(archive.stderr, /not a vzdump archive's volume id/);
    for (const r of [mode, keep, archive]) assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  });

  it("restore over an existing guest is held back without --allow-data-loss (exit 3)", async () => {
    const json = await pvectl(["backup", "list", "--vmid", "701", "--json"], env);
    const archive = (JSON.parse(json.stdout) as { archives: Array<{ volid: string }> }).archives[0]!.volid;
    const held = await pvectl(["restore", archive, "--vmid", "701", "--yes"], env);
    assert.equal(held.code, 3, held.stderr);
    assert.match(held.stdout, /over web \(vmid 701\).*replaced/);
    assert.match(held.stdout, /local-lvm:vm-701-disk-0/);
    const fresh = await pvectl(["restore", archive, "--vmid", "751", "--yes"], env);
    assert.equal(fresh.code, 0, fresh.stderr);
  });

  it("backup prune's plan summary counts the archives it deletes", async () => {
    sim.admin.advanceClock(3600);
    const again = await pvectl(["backup", "run", "--vmid", "702", "--storage", "local", "--yes"], env);
    assert.equal(again.code, 0, again.stderr);
    const pruned = await pvectl(
      ["backup", "prune", "--vmid", "702", "--storage", "local", "--keep-last", "1", "--allow-data-loss", "--yes"],
      env,
    );
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.match(pruned.stdout, /delete backup local:backup\/vzdump-qemu-702-/);
    assert.match(pruned.stdout, /^Backup archives: 1 to delete\.$/m);
  });
});
