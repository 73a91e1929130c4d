// kill -9 in the middle of an apply, then a rerun: no duplicate guests, no orphaned volumes.
// For VMs and for containers (their creates are tasks that outlive the killed process).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import type { RunningSimulator } from "../../src/sim/index.js";
import { containersWithoutVmids, vmsWithoutVmids } from "../engine/specs.js";
import { ROOT } from "../support/cli.js";
import { type CliLab, startCliLab } from "../support/cli-lab.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

function apply(file: string, env: NodeJS.ProcessEnv, killAfterSends?: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, pvectlNodeArgs(["apply", "-f", file, "--yes"]), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      // Killed hard once every create was sent, while their tasks still run.
      if (killAfterSends !== undefined && (stderr.match(/^\.\. /gm) ?? []).length >= killAfterSends)
        setTimeout(() => child.kill("SIGKILL"), 30);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

const KINDS = [
  { what: "VMs", count: 6, section: "vms", entries: vmsWithoutVmids },
  { what: "containers", count: 20, section: "containers", entries: containersWithoutVmids },
] as const;

for (const kind of KINDS) {
  describe(`an apply of ${kind.count} ${kind.what} killed in the middle`, () => {
    let lab: CliLab;
    let sim: RunningSimulator;
    let dir: string;
    let env: NodeJS.ProcessEnv;
    const names = Array.from({ length: kind.count }, (_, i) => `k${i}`);
    before(async () => {
      // Creates take 0.3 s each, two workers per node: the kill lands while most are queued or running.
      lab = await startCliLab("kill", { seed: 9, timing: "realistic", timeScale: 0.1, workersPerNode: 2 });
      ({ sim, dir } = lab);
      env = lab.env;
      writeFileSync(join(dir, "spec.yaml"), `version: 1\n${kind.section}:${kind.entries(names)}\n`);
    });
    after(async () => {
      await lab.close();
    });

    it("leaves nothing a rerun cannot converge: no duplicate guests, no orphaned volumes", async () => {
      const killed = await apply(join(dir, "spec.yaml"), env, kind.count);
      assert.equal(killed.code, null, "the first apply was killed");
      assert.doesNotMatch(killed.stderr, /^ok /m, "killed before any create was seen to finish");
      // A rerun while those creates still run refuses to guess (or finds them finished).
      const early = await apply(join(dir, "spec.yaml"), env);
      if (early.code !== 0) assert.match(early.stderr, /are being created right now and may be k\d/);
      await sim.admin.waitForTasks(30_000);
      const rerun = await apply(join(dir, "spec.yaml"), env);
      assert.equal(rerun.code, 0, rerun.stderr);

      const client = new PveClient({
        host: "127.0.0.1",
        port: sim.port,
        user: "root@pam",
        password: sim.rootPassword,
        fingerprint: sim.fingerprint,
      });
      try {
        const guests = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{
          vmid: number;
          name: string;
          node: string;
        }>;
        assert.deepEqual(guests.map((g) => g.name).sort(), [...names].sort());
        const volumes: string[] = [];
        for (const node of ["pve1", "pve2", "pve3"]) {
          const content = (await client.request("GET", `/nodes/${node}/storage/local-lvm/content`)) as Array<{ volid: string }>;
          volumes.push(...content.map((c) => c.volid));
        }
        assert.deepEqual(volumes.sort(), guests.map((g) => `local-lvm:vm-${g.vmid}-disk-0`).sort(), "one volume per guest, none orphaned");
      } finally {
        await client.close();
      }
    });
  });
}
