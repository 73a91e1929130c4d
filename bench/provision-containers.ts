// Benchmark: provisioning N containers (default 60) on a 3-node simulator with realistic task
// timing (HTTPS, certificate pinned), pvectl against community.general's `proxmox` module.
// Every tool is timed as a whole process from the command line (start-up, spec parsing and
// login included), with /usr/bin/time for CPU seconds. The playbook runs in two shapes:
// - article (bench/playbooks/provision-containers-article.yml): `serial: 1` and the seed's fixed
//   pause after each create, then starts five at a time;
// - best case (provision-containers-best.yml): explicit vmids, no serial, no pause, forks 12, strategy free.
// Prints wall time, CPU seconds and API calls per container, the scheduling lower bound and ratios.
//
//   npm run build && npx tsx bench/provision-containers.ts [--count 60] [--time-scale 1] [--workers 4] [--pause 5] [--skip-article] [--skip-best]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startSimulator } from "../src/sim/index.js";
import { REPO_ROOT, ansibleEnv } from "../test/conformance/helpers.js";
import { pvectlEnv, runningGuests, type Timed, timed } from "./whole-process.js";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "60" },
    "time-scale": { type: "string", default: "1" },
    workers: { type: "string", default: "4" },
    pause: { type: "string", default: "5" },
    "skip-article": { type: "boolean", default: false },
    "skip-best": { type: "boolean", default: false },
    "skip-pvectl": { type: "boolean", default: false },
  },
});
const count = Number(values.count);
const timeScale = Number(values["time-scale"]);
const workers = Number(values.workers);
const NODES = 3;
/** The simulator's realistic mean durations (sim/tasks/timing.ts): a create, then its start task. */
const CREATE_SECONDS = 3;
const START_SECONDS = 1.5;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const FIRST_VMID = 1000;

const names = Array.from({ length: count }, (_, i) => `ct-${String(i + 1).padStart(3, "0")}`);
const nodeOf = (i: number) => `pve${(i % NODES) + 1}`;
const fmt = (n: number, d = 1) => n.toFixed(d);

function specYaml(): string {
  const cts = names.map(
    (name, i) => `
  - hostname: ${name}
    vmid: ${FIRST_VMID + i}
    node: ${nodeOf(i)}
    ostemplate: "${TEMPLATE}"
    power: running
    unprivileged: true
    features: { nesting: true }
    cores: 2
    memory: 1024
    swap: 512
    onboot: true
    tags: [production]
    rootfs: { storage: local-lvm, size: 8G }
    nics:
      net0: { name: eth0, bridge: vmbr0, ip: dhcp }`,
  );
  return `version: 1\ncontainers:${cts.join("")}\n`;
}

const sim = await startSimulator({ port: 0, nodes: NODES, seed: 13, timing: "realistic", timeScale, workersPerNode: workers });
const dir = await mkdtemp(join(tmpdir(), "pvectl-bench-ct-"));
const proxmoxEnv = pvectlEnv(sim);

async function runPlaybook(shape: "article" | "best"): Promise<{ run: Timed; calls: number }> {
  sim.admin.reset();
  sim.admin.setTiming({ profile: "realistic", timeScale, workersPerNode: workers });
  const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)} vmid=${FIRST_VMID + i}`)].join("\n");
  await writeFile(join(dir, "hosts.ini"), `${inventory}\n`);
  const best = shape === "best";
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, pause_seconds: Number(values.pause) });
  sim.admin.resetAccessLog();
  const args = ["-i", join(dir, "hosts.ini"), join(REPO_ROOT, `bench/playbooks/provision-containers-${shape}.yml`), "-e", vars, ...(best ? ["-f", "12"] : [])];
  const run = await timed("ansible-playbook", args, ansibleEnv(best ? { ANSIBLE_STRATEGY: "free" } : {}));
  if (run.code !== 0) throw new Error(`ansible-playbook (${shape}) failed (${run.code}):\n${run.output.slice(-4000)}`);
  const running = await runningGuests(sim, "lxc");
  if (running !== count) throw new Error(`playbook (${shape}): ${running} of ${count} containers running`);
  return { run, calls: sim.accessLog({ entries: false }).total };
}

try {
  // ---- pvectl, whole process ----
  const pvectl = values["skip-pvectl"] ? undefined : await runPvectl();
  for (const shape of ["best", "article"] as const) {
    if (values[`skip-${shape}`]) continue;
    const { run, calls } = await runPlaybook(shape);
    const label = shape === "article" ? `playbook, article shape (serial 1, pause ${values.pause} s)` : "playbook, best case (vmids, forks 12, strategy free)";
    console.log(
      `${label}: ${fmt(run.seconds)} s, ${fmt(run.cpuSeconds, 1)} CPU s (${fmt(run.cpuSeconds / count, 3)} per container), ${calls} API calls (${fmt(calls / count, 2)} per container)`,
    );
    if (pvectl === undefined) continue;
    console.log(
      `  ratio: pvectl is ${fmt(run.seconds / pvectl.run.seconds)}x faster (target >= 10x against the article shape), ` +
        `uses ${fmt(run.cpuSeconds / pvectl.run.cpuSeconds)}x less CPU, ${fmt(pvectl.calls / calls, 2)}x the API calls`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await sim.close();
}

async function runPvectl(): Promise<{ run: Timed; calls: number }> {
  await writeFile(join(dir, "containers.yaml"), specYaml());
  sim.admin.resetAccessLog();
  const pvectl = await timed("node", [join(REPO_ROOT, "bin/pvectl.js"), "apply", join(dir, "containers.yaml"), "--yes", "--json"], proxmoxEnv);
  if (pvectl.code !== 0) throw new Error(`pvectl apply failed (${pvectl.code}):\n${pvectl.output.slice(-4000)}`);
  const log = sim.accessLog({ entries: false });
  const pvectlCalls = log.total;
  const running = await runningGuests(sim, "lxc");
  if (running !== count) throw new Error(`pvectl: ${running} of ${count} containers running after apply`);
  const lowerBound = (count * (CREATE_SECONDS + START_SECONDS) * timeScale) / (NODES * workers);
  console.log(
    `pvectl (whole process, HTTPS): ${count} containers created and started in ${fmt(pvectl.seconds)} s, ` +
      `${fmt(pvectl.cpuSeconds, 2)} CPU s (${fmt(pvectl.cpuSeconds / count, 3)} per container), ${pvectlCalls} API calls (${fmt(pvectlCalls / count, 2)} per container)`,
  );
  console.log(
    `lower bound: ${count} x (create ${CREATE_SECONDS} s + start ${START_SECONDS} s mean, x${timeScale}) / (${NODES} nodes x ${workers} worker slots) = ${fmt(lowerBound)} s; ` +
      `pvectl is ${fmt(pvectl.seconds / lowerBound, 2)}x the lower bound (target <= 1.3x)`,
  );

  console.log(`pvectl per-endpoint calls: ${JSON.stringify(log.byEndpoint)}`);
  return { run: pvectl, calls: pvectlCalls };
}
