// What the playbook-comparison benchmarks (compare, clones-vs-playbook, provision-containers,
// snapshots-vs-playbook) share: their common flags, a 3-node simulator over HTTPS (certificate
// pinned) with a scratch folder, and the two whole-process runs they time against it (pvectl's
// CLI and ansible-playbook), each of which must succeed and is counted in API calls.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type RunningSimulator, startSimulator } from "../src/sim/index.js";
import { ansibleEnv, REPO_ROOT } from "../test/support/conformance.js";
import { pvectlEnv, runningGuests, type Timed, timed } from "./whole-process.js";

export const NODES = 3;
export const fmt = (n: number, d = 1) => n.toFixed(d);
/** The node the i-th guest goes to: round robin over pve1..pve3. */
export const nodeOf = (i: number) => `pve${(i % NODES) + 1}`;
/** `web-001`, `web-002` ... */
export const guestNames = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(3, "0")}`);

export interface ProvisionArgs {
  count: number;
  timeScale: number;
  workers: number;
  /** The article's fixed pause after each create, seconds. */
  pause: number;
  /** Whether `--skip-NAME` was given. */
  skip(name: string): boolean;
}

/** The flags every provisioning comparison takes: `--<countFlag> N --time-scale --workers --pause` and its `--skip-*` switches. */
export function provisionArgs(countFlag: string, countDefault: string, skips: readonly string[]): ProvisionArgs {
  const { values } = parseArgs({
    options: {
      [countFlag]: { type: "string", default: countDefault },
      "time-scale": { type: "string", default: "1" },
      workers: { type: "string", default: "4" },
      pause: { type: "string", default: "5" },
      ...Object.fromEntries(skips.map((s) => [`skip-${s}`, { type: "boolean", default: false } as const])),
    },
  });
  return {
    count: Number(values[countFlag]),
    timeScale: Number(values["time-scale"]),
    workers: Number(values.workers),
    pause: Number(values.pause),
    skip: (name) => values[`skip-${name}`] === true,
  };
}

/** A timed whole-process run and the API calls the simulator served during it. */
export interface Measured {
  run: Timed;
  calls: number;
}

export interface PlaybookRun {
  /** The playbook under bench/playbooks/. */
  file: string;
  /** Inventory lines, group header included. */
  inventory: string[];
  /** Extra vars besides api_host and api_password. */
  vars?: Record<string, unknown>;
  /** Forks (`-f`), else Ansible's default. */
  forks?: number;
  /** ANSIBLE_STRATEGY=free (the best-case playbooks). */
  free?: boolean;
}

export interface BenchLab {
  sim: RunningSimulator;
  /** Writes a file into the lab's scratch folder; its path. */
  write(name: string, text: string): Promise<string>;
  /** A cluster with no guests again, the realistic timing restored, the access log emptied. */
  fresh(): void;
  /** `node bin/pvectl.js ARGS` as a whole process; throws with its output when it fails. */
  pvectl(args: string[], label?: string): Promise<Measured>;
  /** ansible-playbook as a whole process; throws with its output when it fails. */
  playbook(p: PlaybookRun, label: string): Promise<Measured>;
  /** Throws unless exactly `count` guests of `type` run (templates aside). */
  expectRunning(type: "qemu" | "lxc", count: number, label: string): Promise<void>;
  close(): Promise<void>;
}

export interface LabOptions {
  seed: number;
  /** The scratch folder's prefix under the system's temp folder. */
  tmpPrefix: string;
  /** Realistic task timing at this scale with this many worker slots per node; instant tasks when absent. */
  timing?: { timeScale: number; workers: number };
}

export async function startBenchLab(options: LabOptions): Promise<BenchLab> {
  const { timing } = options;
  const sim = await startSimulator({
    port: 0,
    nodes: NODES,
    seed: options.seed,
    ...(timing ? { timing: "realistic" as const, timeScale: timing.timeScale, workersPerNode: timing.workers } : {}),
  });
  const dir = await mkdtemp(join(tmpdir(), options.tmpPrefix));
  const measured = async (label: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Measured> => {
    sim.admin.resetAccessLog();
    const run = await timed(command, args, env);
    if (run.code !== 0) throw new Error(`${label} failed (${run.code}):\n${run.output.slice(-4000)}`);
    return { run, calls: sim.accessLog({ entries: false }).total };
  };
  const write = async (name: string, text: string): Promise<string> => {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  };
  return {
    sim,
    write,
    fresh() {
      sim.admin.reset();
      if (timing) sim.admin.setTiming({ profile: "realistic", timeScale: timing.timeScale, workersPerNode: timing.workers });
      sim.admin.resetAccessLog();
    },
    pvectl: (args, label = `pvectl ${args[0]}`) => measured(label, "node", [join(REPO_ROOT, "bin/pvectl.js"), ...args], pvectlEnv(sim)),
    async playbook(p, label) {
      const hosts = await write("hosts.ini", `${p.inventory.join("\n")}\n`);
      const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, ...p.vars });
      const args = ["-i", hosts, join(REPO_ROOT, "bench/playbooks", p.file), "-e", vars, ...(p.forks ? ["-f", String(p.forks)] : [])];
      return measured(`${label}: ansible-playbook`, "ansible-playbook", args, ansibleEnv(p.free ? { ANSIBLE_STRATEGY: "free" } : {}));
    },
    async expectRunning(type, count, label) {
      const running = await runningGuests(sim, type);
      if (running !== count)
        throw new Error(`${label}: ${running} of ${count} ${type === "lxc" ? "containers" : "VMs"} running afterwards`);
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
      await sim.close();
    },
  };
}

export interface PlaybookComparison {
  args: ProvisionArgs;
  /** "VM", "container": what one guest is called in the per-guest figures. */
  noun: string;
  /** The best-case line's label. */
  bestLabel: string;
  /** pvectl's run, unless skipped. */
  pvectl: Measured | undefined;
  run(shape: "best" | "article"): Promise<Measured>;
}

/** The best-case then the article-shape playbook (each unless `--skip-` it), each printed with its ratio to pvectl. */
export async function comparePlaybooks(c: PlaybookComparison): Promise<void> {
  const { count, pause } = c.args;
  for (const shape of ["best", "article"] as const) {
    if (c.args.skip(shape)) continue;
    const { run, calls } = await c.run(shape);
    const label = shape === "article" ? `playbook, article shape (serial 1, pause ${pause} s)` : c.bestLabel;
    console.log(
      `${label}: ${fmt(run.seconds)} s, ${fmt(run.cpuSeconds, 1)} CPU s (${fmt(run.cpuSeconds / count, 3)} per ${c.noun}), ${calls} API calls (${fmt(calls / count, 2)} per ${c.noun})`,
    );
    if (c.pvectl === undefined) continue;
    console.log(
      `  ratio: pvectl is ${fmt(run.seconds / c.pvectl.run.seconds)}x faster (target >= 10x against the article shape), ` +
        `uses ${fmt(run.cpuSeconds / c.pvectl.run.cpuSeconds)}x less CPU, ${fmt(c.pvectl.calls / calls, 2)}x the API calls`,
    );
  }
}
