// Runs the pvectl CLI as a child process, without a terminal (the built bin/pvectl.js under
// `npm test`: see test/support/pvectl-command.ts).
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
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
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function pvectl(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
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
