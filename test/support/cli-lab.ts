// The set-up most CLI tests repeat: a PVE simulator in-process, a scratch folder for spec files,
// and the PROXMOX_* environment that points the CLI at that simulator as root@pam.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { pvectl, type Result, simEnv } from "./cli.js";

export interface CliLab {
  sim: RunningSimulator;
  /** The scratch folder, removed by close(). */
  dir: string;
  /** Points the CLI at the simulator (over HTTPS with the certificate pinned, or plain HTTP). */
  env: NodeJS.ProcessEnv;
  /** Writes `text` to `name` in the scratch folder and returns its path. */
  write(name: string, text: string): string;
  /** `pvectl <args>` against the simulator (`extraEnv` added to the lab's environment). */
  pvectl(args: string[], extraEnv?: NodeJS.ProcessEnv): Promise<Result>;
  close(): Promise<void>;
}

/** Starts the simulator (port 0, `options` as given) and makes a scratch folder named after `prefix`. */
export async function startCliLab(prefix: string, options: SimulatorOptions = {}): Promise<CliLab> {
  const sim = await startSimulator({ port: 0, ...options });
  const dir = mkdtempSync(join(tmpdir(), `pvectl-${prefix}-`));
  const env =
    options.https === false
      ? { PROXMOX_HOST: `http://127.0.0.1:${sim.port}`, PROXMOX_USER: "root@pam", PROXMOX_PASSWORD: sim.rootPassword }
      : simEnv(sim);
  return {
    sim,
    dir,
    env,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    pvectl: (args, extraEnv = {}) => pvectl(args, { ...env, ...extraEnv }),
    close: async () => {
      rmSync(dir, { recursive: true, force: true });
      await sim.close();
    },
  };
}
