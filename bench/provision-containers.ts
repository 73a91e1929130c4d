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
import { comparePlaybooks, fmt, guestNames, type Measured, NODES, nodeOf, provisionArgs, startBenchLab } from "./lab.js";

const args = provisionArgs("count", "60", ["article", "best", "pvectl"]);
const { count, timeScale, workers } = args;
/** The simulator's realistic mean durations (sim/tasks/timing.ts): a create, then its start task. */
const CREATE_SECONDS = 3;
const START_SECONDS = 1.5;
const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const FIRST_VMID = 1000;

const names = guestNames("ct", count);

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

const lab = await startBenchLab({ seed: 13, tmpPrefix: "pvectl-bench-ct-", timing: { timeScale, workers } });
const { sim } = lab;

async function runPlaybook(shape: "article" | "best"): Promise<Measured> {
  lab.fresh();
  const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)} vmid=${FIRST_VMID + i}`)];
  const measured = await lab.playbook(
    {
      file: `provision-containers-${shape}.yml`,
      inventory,
      vars: { pause_seconds: args.pause },
      ...(shape === "best" ? { forks: 12, free: true } : {}),
    },
    `playbook (${shape})`,
  );
  await lab.expectRunning("lxc", count, `playbook (${shape})`);
  return measured;
}

try {
  // ---- pvectl, whole process ----
  const pvectl = args.skip("pvectl") ? undefined : await runPvectl();
  await comparePlaybooks({
    args,
    noun: "container",
    bestLabel: "playbook, best case (vmids, forks 12, strategy free)",
    pvectl,
    run: runPlaybook,
  });
} finally {
  await lab.close();
}

async function runPvectl(): Promise<Measured> {
  const pvectl = await lab.pvectl(["apply", await lab.write("containers.yaml", specYaml()), "--yes", "--json"], "pvectl apply");
  const log = sim.accessLog({ entries: false });
  const pvectlCalls = pvectl.calls;
  await lab.expectRunning("lxc", count, "pvectl");
  const lowerBound = (count * (CREATE_SECONDS + START_SECONDS) * timeScale) / (NODES * workers);
  console.log(
    `pvectl (whole process, HTTPS): ${count} containers created and started in ${fmt(pvectl.run.seconds)} s, ` +
      `${fmt(pvectl.run.cpuSeconds, 2)} CPU s (${fmt(pvectl.run.cpuSeconds / count, 3)} per container), ${pvectlCalls} API calls (${fmt(pvectlCalls / count, 2)} per container)`,
  );
  console.log(
    `lower bound: ${count} x (create ${CREATE_SECONDS} s + start ${START_SECONDS} s mean, x${timeScale}) / (${NODES} nodes x ${workers} worker slots) = ${fmt(lowerBound)} s; ` +
      `pvectl is ${fmt(pvectl.run.seconds / lowerBound, 2)}x the lower bound (target <= 1.3x)`,
  );

  console.log(`pvectl per-endpoint calls: ${JSON.stringify(log.byEndpoint)}`);
  return pvectl;
}
