// Benchmark: 60 linked clones (default) with cloud-init from one template on a 3-node simulator
// with realistic task timing (HTTPS, certificate pinned): pvectl (one plan: clone, then the
// follow-ups that converge each copy: CPU, memory, cloud-init, tags, the cloned disk grown,
// started) against community.general.proxmox_kvm clone + `update: true` + proxmox_disk + start.
// Every tool is timed as a whole process (start-up, spec parsing and login included), with
// /usr/bin/time for CPU seconds. The playbook runs in two shapes:
// - article (bench/playbooks/clone-article.yml): `serial: 1` and the seed's fixed pause after
//   each host, then starts five at a time;
// - best case (clone-best.yml): explicit vmids, no serial, no pause, forks 12, strategy free.
//
//   npm run build && npx tsx bench/clones-vs-playbook.ts [--count 60] [--time-scale 1] [--workers 4] [--pause 5] [--skip-article] [--skip-best] [--skip-pvectl]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
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
const TEMPLATE_VMID = 9000;
const FIRST_VMID = 1000;
/** The simulator's realistic mean durations (sim/tasks/timing.ts) of the tasks one clone needs. */
const SECONDS = { clone: 2, resize: 0.5, start: 1.5 };

const names = Array.from({ length: count }, (_, i) => `web-${String(i + 1).padStart(3, "0")}`);
const nodeOf = (i: number) => `pve${(i % NODES) + 1}`;
const ipOf = (i: number) => `10.0.20.${10 + i}`;
const fmt = (n: number, d = 1) => n.toFixed(d);

/**
 * Every clone task runs on the template's node (pve1) and takes one of its worker slots; the
 * resize and start of each copy run on the copy's node. The busiest node bounds the run.
 */
function lowerBound(): number {
  const perNode = new Map<string, number>();
  names.forEach((_, i) => {
    perNode.set("pve1", (perNode.get("pve1") ?? 0) + SECONDS.clone);
    perNode.set(nodeOf(i), (perNode.get(nodeOf(i)) ?? 0) + SECONDS.resize + SECONDS.start);
  });
  return (Math.max(...perNode.values()) * timeScale) / workers;
}

function specYaml(): string {
  const vms = names.map(
    (name, i) => `
  - name: ${name}
    vmid: ${FIRST_VMID + i}
    node: ${nodeOf(i)}
    clone: { from: ${TEMPLATE_VMID}, full: false }
    power: running
    cores: 2
    memory: 2048
    tags: [production]
    disks:
      scsi0: { storage: shared, size: 16G }
    nics:
      net0: { bridge: vmbr0 }
    cloudInit:
      storage: shared
      ipconfig:
        ipconfig0: { ip: ${ipOf(i)}/24, gw: 10.0.20.1 }`,
  );
  return `version: 1\nvms:${vms.join("")}\n`;
}

const sim = await startSimulator({ port: 0, nodes: NODES, seed: 14, timing: "realistic", timeScale, workersPerNode: workers });
const dir = await mkdtemp(join(tmpdir(), "pvectl-bench-clone-"));

/** The template every run clones: a 4 GiB disk and a cloud-init drive on shared storage, one NIC. */
async function makeTemplate(): Promise<void> {
  const client = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
  try {
    const create = (await client.request("POST", "/nodes/pve1/qemu", {
      vmid: TEMPLATE_VMID,
      name: "debian-13-tpl",
      memory: 1024,
      scsihw: "virtio-scsi-single",
      scsi0: "shared:4,format=qcow2",
      ide2: "shared:cloudinit",
      net0: "virtio,bridge=vmbr0",
      ciuser: "debian",
      ostype: "l26",
    })) as string;
    await client.waitForTask(create);
    await client.waitForTask((await client.request("POST", `/nodes/pve1/qemu/${TEMPLATE_VMID}/template`)) as string);
  } finally {
    await client.close();
  }
}

async function runPvectl(): Promise<{ run: Timed; calls: number }> {
  await writeFile(join(dir, "clones.yaml"), specYaml());
  sim.admin.resetAccessLog();
  const run = await timed("node", [join(REPO_ROOT, "bin/pvectl.js"), "apply", join(dir, "clones.yaml"), "--yes", "--json"], pvectlEnv(sim));
  if (run.code !== 0) throw new Error(`pvectl apply failed (${run.code}):\n${run.output.slice(-4000)}`);
  const log = sim.accessLog({ entries: false });
  const running = await runningGuests(sim, "qemu");
  if (running !== count) throw new Error(`pvectl: ${running} of ${count} clones running after apply`);
  const bound = lowerBound();
  console.log(
    `pvectl (whole process, HTTPS): ${count} linked clones converged and started in ${fmt(run.seconds)} s, ` +
      `${fmt(run.cpuSeconds, 2)} CPU s (${fmt(run.cpuSeconds / count, 3)} per VM), ${log.total} API calls (${fmt(log.total / count, 2)} per VM)`,
  );
  console.log(
    `lower bound: the busiest node's task seconds (pve1: ${count} clones x ${SECONDS.clone} s + its copies' resize and start) x${timeScale} / ${workers} worker slots = ${fmt(bound)} s; ` +
      `pvectl is ${fmt(run.seconds / bound, 2)}x the lower bound (target <= 1.3x)`,
  );
  console.log(`pvectl per-endpoint calls: ${JSON.stringify(log.byEndpoint)}`);
  return { run, calls: log.total };
}

async function runPlaybook(shape: "article" | "best"): Promise<{ run: Timed; calls: number }> {
  sim.admin.reset();
  sim.admin.setTiming({ profile: "realistic", timeScale, workersPerNode: workers });
  await makeTemplate();
  const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)} vmid=${FIRST_VMID + i} ip=${ipOf(i)}`)].join("\n");
  await writeFile(join(dir, "hosts.ini"), `${inventory}\n`);
  const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, pause_seconds: Number(values.pause), template_vmid: TEMPLATE_VMID });
  sim.admin.resetAccessLog();
  const best = shape === "best";
  const args = ["-i", join(dir, "hosts.ini"), join(REPO_ROOT, `bench/playbooks/clone-${shape}.yml`), "-e", vars, ...(best ? ["-f", "12"] : [])];
  const run = await timed("ansible-playbook", args, ansibleEnv(best ? { ANSIBLE_STRATEGY: "free" } : {}));
  if (run.code !== 0) throw new Error(`ansible-playbook (${shape}) failed (${run.code}):\n${run.output.slice(-4000)}`);
  const running = await runningGuests(sim, "qemu");
  if (running !== count) throw new Error(`playbook (${shape}): ${running} of ${count} clones running`);
  return { run, calls: sim.accessLog({ entries: false }).total };
}

try {
  await makeTemplate();
  const pvectl = values["skip-pvectl"] ? undefined : await runPvectl();
  for (const shape of ["best", "article"] as const) {
    if (values[`skip-${shape}`]) continue;
    const { run, calls } = await runPlaybook(shape);
    const label = shape === "article" ? `playbook, article shape (serial 1, pause ${values.pause} s)` : "playbook, best case (newid, forks 12, strategy free)";
    console.log(
      `${label}: ${fmt(run.seconds)} s, ${fmt(run.cpuSeconds, 1)} CPU s (${fmt(run.cpuSeconds / count, 3)} per VM), ${calls} API calls (${fmt(calls / count, 2)} per VM)`,
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
