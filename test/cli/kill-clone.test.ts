// kill -9 between clones and their follow-up steps, then a rerun: each clone is found by its
// ownership tag (copied from the template) and name and finished; nothing is cloned twice and
// no volume is left behind.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { ROOT, simEnv } from "../support/cli.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

/** Runs `pvectl apply`; with `killOn`, killed hard as soon as stderr matches it. */
function apply(file: string, env: NodeJS.ProcessEnv, killOn?: RegExp): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, pvectlNodeArgs(["apply", "-f", file, "--yes"]), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (killOn?.test(stderr)) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

const NAMES = ["c0", "c1", "c2", "c3"];

const SPEC = `version: 1
vms:${NAMES.map(
  (name) => `
  - name: ${name}
    node: pve1
    power: running
    cores: 2
    memory: 1G
    clone: { from: tpl }
    disks:
      scsi0: { storage: local-lvm, size: 2G }`,
).join("")}
`;

describe("an apply of clones killed between the clone and its follow-ups", () => {
  let sim: RunningSimulator;
  let client: PveClient;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 11, timing: "realistic", timeScale: 0.1, workersPerNode: 2 });
    client = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: sim.rootPassword,
      fingerprint: sim.fingerprint,
    });
    await client.request("POST", "/nodes/pve1/qemu", { vmid: 9000, name: "tpl", memory: 512, scsi0: "local-lvm:1", tags: "pvectl" });
    await sim.admin.waitForTasks(30_000);
    await client.request("POST", "/nodes/pve1/qemu/9000/template", {});
    await sim.admin.waitForTasks(30_000);
    dir = mkdtempSync(join(tmpdir(), "pvectl-kill-clone-"));
    writeFileSync(join(dir, "spec.yaml"), SPEC);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await client.close();
    await sim.close();
  });

  it("the rerun finishes each clone; no second clone, no orphaned volume", async () => {
    const env = simEnv(sim);
    // Killed once the first clone is done: its follow-ups have not run, others are mid-clone.
    const killed = await apply(join(dir, "spec.yaml"), env, /^ok .*clone/m);
    assert.equal(killed.code, null, "the first apply was killed");
    await sim.admin.waitForTasks(30_000);
    const made = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ name?: string }>;
    assert.ok(
      made.some((g) => NAMES.includes(g.name ?? "")),
      "at least one clone was made before the kill",
    );

    const rerun = await apply(join(dir, "spec.yaml"), env);
    assert.equal(rerun.code, 0, rerun.stderr);
    const guests = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{
      vmid: number;
      name: string;
      status: string;
    }>;
    const clones = guests.filter((g) => g.vmid !== 9000);
    assert.deepEqual(clones.map((g) => g.name).sort(), NAMES, "one guest per name: nothing cloned twice");
    for (const g of clones) {
      assert.equal(g.status, "running", `${g.name} was started`);
      const config = (await client.request("GET", `/nodes/pve1/qemu/${g.vmid}/config`)) as Record<string, string | number>;
      assert.equal(config.cores, 2, `${g.name} was converged`);
      assert.match(String(config.scsi0), /size=2G/);
    }
    const content = (await client.request("GET", "/nodes/pve1/storage/local-lvm/content")) as Array<{ volid: string }>;
    assert.deepEqual(
      content.map((c) => c.volid).sort(),
      ["local-lvm:base-9000-disk-0", ...clones.map((g) => `local-lvm:base-9000-disk-0/vm-${g.vmid}-disk-0`)].sort(),
      "the template's base volume and one linked volume per clone, none orphaned",
    );
    const plan = await apply(join(dir, "spec.yaml"), env);
    assert.equal(plan.code, 0, plan.stderr);
  });
});
