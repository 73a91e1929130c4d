// Benchmark: one snapshot of each of 200 guests (default; a quarter containers) on a 3-node
// simulator over HTTPS with realistic task timing (a snapshot 1.5 s +-25 %). pvectl
// (`snapshot create --all`: one plan, the per-node executor) against the playbook a
// community.general 6.6.2 user writes (bench/playbooks/snap.yml: one proxmox_snap per host of a
// 200-host inventory) with forks 5 (Ansible's default) and forks 50. Every tool runs as a whole
// process under /usr/bin/time. Per run: wall time, CPU seconds, API calls, and per node the peak
// of tasks in flight (running + queued) and running against the node's worker slots, which are
// pvectl's own per-node limit (sized from the node's CPUs) unless --workers says otherwise.
//
//   npm run build && npx tsx bench/snapshots-vs-playbook.ts [--count 200] [--time-scale 1] [--workers N] [--skip-pvectl] [--skip-forks5] [--skip-forks50]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { defaultPerNode } from "../src/engine/apply.js";
import { readCluster } from "../src/engine/cluster.js";
import type { NodeTaskLoad } from "../src/sim/index.js";
import { ownedGuests, seedOwnedGuests, snapshotsByVmid } from "../test/cli/owned-guests.js";
import { ansibleEnv, REPO_ROOT } from "../test/support/conformance.js";
import { fmt, NODES, startBenchLab } from "./lab.js";
import { pvectlEnv, type Timed, timed } from "./whole-process.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "200" },
    "time-scale": { type: "string", default: "1" },
    workers: { type: "string" },
    "skip-pvectl": { type: "boolean", default: false },
    "skip-forks5": { type: "boolean", default: false },
    "skip-forks50": { type: "boolean", default: false },
  },
});
const count = Number(values.count);
const timeScale = Number(values["time-scale"]);
/** The simulator's realistic mean duration of a snapshot task (sim/tasks/timing.ts). */
const SNAPSHOT_SECONDS = 1.5;

interface Run {
  label: string;
  run: Timed;
  calls: number;
  load: Record<string, NodeTaskLoad>;
  /** Playbooks only: hosts whose task failed, and the first failure's message. */
  failed?: { hosts: number; first: string };
}

/** A playbook's failed hosts (its PLAY RECAP) and its failure messages, most frequent first, with counts. */
function playbookFailures(output: string): { hosts: number; first: string } {
  const hosts = [...output.matchAll(/\bfailed=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  const counts = new Map<string, number>();
  for (const m of output.matchAll(/"msg": "([^"]{0,160})/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  const first =
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([msg, n]) => `${n}x ${msg}`)
      .join(" | ") || "(no message)";
  return { hosts, first };
}

// Instant tasks while the guests are seeded; the realistic timing is set once the slots are known.
const lab = await startBenchLab({ seed: 15, tmpPrefix: "pvectl-bench-snap-" });
const { sim } = lab;
const guests = ownedGuests(count, NODES);

/** pvectl's per-node limit for the simulator's nodes (all alike): the slots unless --workers. */
async function pvectlPerNode(): Promise<number> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  const cluster = await readCluster(client).finally(() => client.close());
  return Math.min(...[...cluster.nodes.keys()].map((node) => defaultPerNode(cluster, node)));
}

/** The busiest node's snapshot seconds over its slots: no tool can finish sooner. */
function lowerBound(slots: number): number {
  const busiest = Math.ceil(count / NODES);
  return (busiest * SNAPSHOT_SECONDS * timeScale) / slots;
}

/**
 * Runs one tool and reads what it did. A playbook whose hosts failed is reported, not thrown:
 * proxmox_snap gives up on a task after its `timeout` (30 s), and tasks queued behind a node's
 * slots are how an overloaded node shows. pvectl must succeed on every guest.
 */
async function measured(
  label: string,
  snapName: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  mayFail = false,
): Promise<Run> {
  sim.admin.resetAccessLog();
  sim.admin.resetTaskLoad();
  const run = await timed(command, args, env);
  const failed = run.code !== 0 && mayFail ? playbookFailures(run.output) : undefined;
  if (run.code !== 0 && !failed?.hosts) throw new Error(`${label} failed (${run.code}):\n${run.output.slice(-4000)}`);
  await sim.admin.waitForTasks(600_000);
  const calls = sim.accessLog({ entries: false }).total;
  const load = sim.admin.taskLoad().nodes;
  const snapshots = await snapshotsByVmid(sim, guests);
  const missing = guests.filter((g) => !(snapshots.get(g.vmid) ?? []).includes(snapName)).length;
  // A module that timed out leaves its task running: the snapshot is there once the task ends.
  if (missing > 0) throw new Error(`${label}: ${missing} of ${count} guests have no snapshot ${snapName}`);
  return { label, run, calls, load, ...(failed ? { failed } : {}) };
}

function runPvectl(): Promise<Run> {
  const args = [join(REPO_ROOT, "bin/pvectl.js"), "snapshot", "create", "bench-pvectl", "--all", "--yes", "--json"];
  return measured("pvectl", "bench-pvectl", "node", args, pvectlEnv(sim));
}

async function runPlaybook(forks: number): Promise<Run> {
  const hosts = await lab.write("hosts.ini", `${["[guests]", ...guests.map((g) => `${g.name} vmid=${g.vmid}`)].join("\n")}\n`);
  const snapName = `bench-forks${forks}`;
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, snap_name: snapName });
  const args = ["-i", hosts, join(REPO_ROOT, "bench/playbooks/snap.yml"), "-e", vars, "-f", String(forks)];
  return measured(`playbook, forks ${forks}`, snapName, "ansible-playbook", args, ansibleEnv({}), true);
}

function loadLine(load: Record<string, NodeTaskLoad>, slots: number): string {
  const nodes = Object.keys(load).sort();
  const peak = Math.max(...nodes.map((n) => load[n]?.peakInFlight ?? 0));
  const perNode = nodes.map((n) => `${n} ${load[n]?.peakInFlight} in flight / ${load[n]?.peakRunning} running`).join(", ");
  const verdict = peak > slots ? `OVER its ${slots} slots by ${fmt(peak / slots, 2)}x` : `within its ${slots} slots`;
  return `peak per node: ${perNode}; busiest node ${verdict}`;
}

function report(r: Run, slots: number): void {
  console.log(
    `${r.label} (whole process, HTTPS): ${count} snapshots in ${fmt(r.run.seconds)} s, ${fmt(r.run.cpuSeconds, 2)} CPU s ` +
      `(${fmt(r.run.cpuSeconds / count, 3)} per guest), ${r.calls} API calls (${fmt(r.calls / count, 2)} per guest)`,
  );
  console.log(`  ${loadLine(r.load, slots)}`);
  if (r.failed) console.log(`  ${r.failed.hosts} of ${count} hosts failed: ${r.failed.first}`);
}

try {
  await seedOwnedGuests(sim, guests);
  const slots = values.workers !== undefined ? Number(values.workers) : await pvectlPerNode();
  sim.admin.setTiming({ profile: "realistic", timeScale, workersPerNode: slots });
  console.log(
    `${count} guests (${guests.filter((g) => g.type === "lxc").length} containers) on ${NODES} nodes, ${slots} worker slots per node ` +
      `(pvectl's per-node limit: ${await pvectlPerNode()}), snapshot ${SNAPSHOT_SECONDS} s +-25 % x${timeScale}; ` +
      `lower bound (busiest node's snapshots / slots): ${fmt(lowerBound(slots))} s`,
  );
  const pvectl = values["skip-pvectl"] ? undefined : await runPvectl();
  if (pvectl) {
    report(pvectl, slots);
    console.log(`  pvectl is ${fmt(pvectl.run.seconds / lowerBound(slots), 2)}x the lower bound`);
  }
  for (const forks of [5, 50]) {
    if (values[`skip-forks${forks}` as "skip-forks5" | "skip-forks50"]) continue;
    const playbook = await runPlaybook(forks);
    report(playbook, slots);
    if (!pvectl) continue;
    console.log(
      `  ratio: pvectl is ${fmt(playbook.run.seconds / pvectl.run.seconds)}x faster${forks === 5 ? " (target >= 5x)" : ""}, ` +
        `uses ${fmt(playbook.run.cpuSeconds / pvectl.run.cpuSeconds)}x less CPU, ${fmt(pvectl.calls / playbook.calls, 2)}x the API calls`,
    );
  }
} finally {
  await lab.close();
}
