// Free space is judged before anything runs, summed over the whole plan: two disks that each fit
// on a thick LVM storage but not together are refused at preflight (exit 1, nothing created).
// A disk's `format:` is converged: a move to a file storage with `format: qcow2` passes it to
// PVE's move_disk, and the next plan is empty.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getQemuConfig } from "../../src/api/endpoints/index.js";
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { pvectl } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";

const config = {
  nodes: 1,
  content: [],
  storages: [
    { id: "local-lvm", type: "lvmthin", content: "images,rootdir", size: 100 },
    { id: "thick", type: "lvm", content: "images,rootdir", size: 8 },
    { id: "shared", type: "nfs", content: "images,rootdir", shared: true, size: 100 },
  ],
};

function vm(vmid: number, disk: string): string {
  return `  - vmid: ${vmid}\n    name: vm${vmid}\n    node: pve1\n    disks:\n      scsi0: { ${disk} }\n`;
}

describe("free space and disk format at plan time", () => {
  let lab: CliLab;
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const spec = (name: string, ...vms: string[]) => {
    const file = join(dir, name);
    writeFileSync(file, `version: 1\nvms:\n${vms.join("")}`);
    return file;
  };
  before(async () => {
    lab = await startCliLab("space", { seed: 5, config });
    ({ sim, dir } = lab);
    env = lab.env;
  });
  after(async () => {
    await lab.close();
  });

  it("refuses a plan whose new disks overfill a thick LVM storage together, before creating anything", async () => {
    const file = spec("over.yaml", vm(301, "storage: thick, size: 5G"), vm(302, "storage: thick, size: 5G"));
    const plan = await pvectl(["plan", "-f", file], env);
    assert.equal(plan.code, 1, plan.stdout + plan.stderr);
    const out = plan.stdout + plan.stderr;
    assert.match(
      out,
      /storage thick on node pve1 \(thick LVM, which cannot over-commit\) has 8 GiB free of 8 GiB, this plan needs 10 GiB there \(vm301 scsi0 new 5 GiB, vm302 scsi0 new 5 GiB\)/,
    );
    assert.match(out, /free 2 GiB on thick first/);
    const apply = await pvectl(["apply", "-f", file, "--yes"], env);
    assert.equal(apply.code, 1);
    const listed = await pvectl(["plan", "-f", spec("one.yaml", vm(301, "storage: thick, size: 5G")), "--json"], env);
    const fresh = JSON.parse(listed.stdout) as { guests: Array<{ exists: boolean }>; preflightErrors: unknown[] };
    assert.deepEqual(
      fresh.guests.map((g) => g.exists),
      [false],
      "nothing was created",
    );
    assert.deepEqual(fresh.preflightErrors, [], "one disk alone fits");
  });

  it("moves a disk to NFS as qcow2 when the spec sets format, and the next plan is empty", async () => {
    const created = await pvectl(["apply", "-f", spec("a.yaml", vm(310, "storage: local-lvm, size: 1G")), "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
    const moved = spec("b.yaml", vm(310, "storage: shared, size: 1G, format: qcow2"));
    const applied = await pvectl(["apply", "-f", moved, "--yes", "--allow-data-loss"], env);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    const client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint,
    });
    const volume = async () => String((await getQemuConfig(client, "pve1", 310)).scsi0);
    assert.match(await volume(), /^shared:310\/vm-310-disk-\d+\.qcow2,/);
    const shown = await pvectl(["plan", "-f", moved, "--detailed-exitcode"], env);
    assert.equal(shown.code, 0, shown.stdout);
    // the same storage, another format: moved again (PVE's move_disk allows it with `format`)
    const raw = spec("c.yaml", vm(310, "storage: shared, size: 1G, format: raw"));
    const plan = await pvectl(["plan", "-f", raw], env);
    assert.match(plan.stdout, /move scsi0 from shared to shared as raw/);
    assert.equal((await pvectl(["apply", "-f", raw, "--yes", "--allow-data-loss"], env)).code, 0);
    assert.match(await volume(), /^shared:310\/vm-310-disk-\d+\.raw,/);
    assert.equal((await pvectl(["plan", "-f", raw, "--detailed-exitcode"], env)).code, 0);
    await client.close();
  });
});
