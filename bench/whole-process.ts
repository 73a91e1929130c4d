// What the provisioning benchmarks share: a tool run as a whole process under /usr/bin/time
// (wall seconds, and user + system CPU of it and its children), and the guests a simulator
// lists as running, read outside any timing.
import { spawn } from "node:child_process";
import { PveClient } from "../src/api/index.js";
import type { RunningSimulator } from "../src/sim/index.js";
import { REPO_ROOT } from "../test/support/conformance.js";

export interface Timed {
  code: number;
  seconds: number;
  cpuSeconds: number;
  output: string;
}

export function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "CPU %U %S", command, ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(output);
      resolve({
        code: code ?? -1,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN,
        output,
      });
    });
  });
}

/** How many guests of `type` the cluster lists as running. */
export async function runningGuests(sim: RunningSimulator, type: "qemu" | "lxc"): Promise<number> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  try {
    const guests = (await client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{
      type: string;
      status: string;
      template?: number;
    }>;
    return guests.filter((g) => g.type === type && g.status === "running" && !g.template).length;
  } finally {
    await client.close();
  }
}

/** The PROXMOX_* environment that points pvectl's CLI at the simulator (password, certificate pinned). */
export function pvectlEnv(sim: RunningSimulator): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  };
}
