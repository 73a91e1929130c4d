// Runs the pvectl CLI without a terminal: in the test's own process (pvectl, see
// cli-in-process.ts) or as a child process (pvectlChild, spawnPvectl: the built bin/pvectl.js
// under `npm test`, see test/support/pvectl-command.ts).
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { pvectlInProcess } from "./cli-in-process.js";
import { pvectlNodeArgs, ROOT } from "./pvectl-command.js";

export { ROOT };

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as a child process (a test that kills it midway needs the process itself). */
export function spawnPvectl(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, pvectlNodeArgs(args), {
    cwd: ROOT,
    env: baseEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The environment every CLI run starts from (a child's whole environment: nothing else leaks in). */
function baseEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env };
}

/**
 * `pvectl <args>` with exactly `env` (over PATH, HOME and NO_COLOR): run by main() in this process,
 * which saves a child's start and module loading per call. PVECTL_TEST_CLI=child runs every call
 * as a child instead (to check the two agree); so does a test process whose working directory is
 * not the repository root, where a child's relative paths would mean something else.
 */
export function pvectl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  if (process.env.PVECTL_TEST_CLI === "child" || `${process.cwd()}/` !== ROOT) return pvectlChild(args, env);
  return pvectlInProcess(args, baseEnv(env));
}

/** `pvectl <args>` as a child process: for what only a process shows (its exit on a signal, closed pipes, what it loads). */
export function pvectlChild(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawnPvectl(args, env);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The PROXMOX_* environment that points the CLI at an in-process simulator (password login, certificate pinned). */
export function simEnv(sim: { port: number; rootPassword: string; fingerprint?: string }): NodeJS.ProcessEnv {
  return {
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  };
}
