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
import { PveClient } from "../src/api/index.js";
import { comparePlaybooks, fmt, guestNames, type Measured, nodeOf, provisionArgs, startBenchLab } from "./lab.js";

const args = provisionArgs("count", "60", ["article", "best", "pvectl"]);
const { count, timeScale, workers } = args;
const TEMPLATE_VMID = 9000;
const FIRST_VMID = 1000;
/** The simulator's realistic mean durations (sim/tasks/timing.ts) of the tasks one clone needs. */
const SECONDS = { clone: 2, resize: 0.5, start: 1.5 };

const names = guestNames("web", count);
const ipOf = (i: number) => `10.0.20.${10 + i}`;

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

const lab = await startBenchLab({ seed: 14, tmpPrefix: "pvectl-bench-clone-", timing: { timeScale, workers } });
const { sim } = lab;

/** The template every run clones: a 4 GiB disk and a cloud-init drive on shared storage, one NIC. */
async function makeTemplate(): Promise<void> {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
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

async function runPvectl(): Promise<Measured> {
  const { run, calls } = await lab.pvectl(["apply", await lab.write("clones.yaml", specYaml()), "--yes", "--json"], "pvectl apply");
  const log = sim.accessLog({ entries: false });
  await lab.expectRunning("qemu", count, "pvectl");
  const bound = lowerBound();
  console.log(
    `pvectl (whole process, HTTPS): ${count} linked clones converged and started in ${fmt(run.seconds)} s, ` +
      `${fmt(run.cpuSeconds, 2)} CPU s (${fmt(run.cpuSeconds / count, 3)} per VM), ${calls} API calls (${fmt(calls / count, 2)} per VM)`,
  );
  console.log(
    `lower bound: the busiest node's task seconds (pve1: ${count} clones x ${SECONDS.clone} s + its copies' resize and start) x${timeScale} / ${workers} worker slots = ${fmt(bound)} s; ` +
      `pvectl is ${fmt(run.seconds / bound, 2)}x the lower bound (target <= 1.3x)`,
  );
  console.log(`pvectl per-endpoint calls: ${JSON.stringify(log.byEndpoint)}`);
  return { run, calls };
}

async function runPlaybook(shape: "article" | "best"): Promise<Measured> {
  lab.fresh();
  await makeTemplate();
  const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)} vmid=${FIRST_VMID + i} ip=${ipOf(i)}`)];
  const vars = { pause_seconds: args.pause, template_vmid: TEMPLATE_VMID };
  const measured = await lab.playbook(
    { file: `clone-${shape}.yml`, inventory, vars, ...(shape === "best" ? { forks: 12, free: true } : {}) },
    `playbook (${shape})`,
  );
  await lab.expectRunning("qemu", count, `playbook (${shape})`);
  return measured;
}

try {
  await makeTemplate();
  const pvectl = args.skip("pvectl") ? undefined : await runPvectl();
  await comparePlaybooks({ args, noun: "VM", bestLabel: "playbook, best case (newid, forks 12, strategy free)", pvectl, run: runPlaybook });
} finally {
  await lab.close();
}
