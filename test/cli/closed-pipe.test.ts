// A reader that closes early (`pvectl inventory --list | head -c 10`) ends the run quietly: no
// stack trace, exit code 0. The child's stdout pipe is closed before it writes anything, so
// every write it makes meets EPIPE.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, ROOT, type Result, simEnv } from "../support/cli.js";
import { pvectlNodeArgs } from "../support/pvectl-command.js";

/** Runs the CLI with its stdout pipe closed at once by the reader. */
function pvectlReaderGone(args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, pvectlNodeArgs(args), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout: "", stderr }));
  });
}

describe("output to a reader that closed early", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 41 });
    env = simEnv(sim);
    dir = mkdtempSync(join(tmpdir(), "pvectl-closed-pipe-"));
    const spec = join(dir, "spec.yaml");
    writeFileSync(spec, "version: 1\nvms:\n  - name: piped\n    node: pve1\n    memory: 512\n");
    const made = await pvectl(["apply", "-f", spec, "--yes"], env);
    assert.equal(made.code, 0, made.stderr);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  for (const args of [["inventory", "--list"], ["import", "--all"], ["snapshot", "list", "--all"], ["--help"]]) {
    it(`pvectl ${args.join(" ")} exits 0 without a stack trace`, async () => {
      const run = await pvectlReaderGone(args, env);
      assert.doesNotMatch(run.stderr, /EPIPE|\n\s+at /);
      assert.equal(run.code, 0, run.stderr);
    });
  }
});
