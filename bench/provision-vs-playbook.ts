// Benchmark: provisioning N VMs (default 60) on a 3-node simulator with realistic task timing,
// once with pvectl (plan + apply, per-node concurrency) and once with the seed article's
// playbook (community.general.proxmox_kvm, `serial: 1`, pause 5 s, then a start play with
// `serial: 5`) through Debian's ansible-playbook. One run; prints wall time, the lower bound
// (task time over worker slots), API calls per created VM, and the ratios.
//
//   npx tsx bench/provision-vs-playbook.ts [--vms 60] [--time-scale 1] [--workers 4] [--pause 5] [--skip-playbook]
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { applyPlan } from "../src/engine/apply.js";
import { buildPlan } from "../src/engine/plan.js";
import { desiredVmFromSpec } from "../src/sources/spec/qemu-desired.js";
import { startSimulator } from "../src/sim/index.js";
import { parseSpec } from "../src/sources/spec/index.js";
import { REPO_ROOT, ansibleEnv, run } from "../test/conformance/helpers.js";

const { values } = parseArgs({
  options: {
    vms: { type: "string", default: "60" },
    "time-scale": { type: "string", default: "1" },
    workers: { type: "string", default: "4" },
    pause: { type: "string", default: "5" },
    "skip-playbook": { type: "boolean", default: false },
  },
});
const count = Number(values.vms);
const timeScale = Number(values["time-scale"]);
const workers = Number(values.workers);
const NODES = 3;
/** The simulator's realistic base duration of a create task (simulated seconds; jitter +-25%, mean 1). */
const CREATE_SECONDS = 3;

const names = Array.from({ length: count }, (_, i) => `vm-${String(i + 1).padStart(3, "0")}`);
const nodeOf = (i: number) => `pve${(i % NODES) + 1}`;

function specYaml(): string {
  const vms = names.map(
    (name, i) => `
  - name: ${name}
    node: ${nodeOf(i)}
    power: running
    cores: 2
    memory: 2048
    machine: q35
    bios: ovmf
    ostype: l26
    scsihw: virtio-scsi-single
    efidisk: { storage: local-lvm, format: raw, efitype: 4m, preEnrolledKeys: true }
    boot: [scsi0, sata0]
    agent: { enabled: true, fstrimClonedDisks: true }
    onboot: true
    tags: [production]
    disks:
      scsi0: { storage: local-lvm, size: 16G, discard: on, ssd: true }
    cdroms:
      sata0: { iso: "local:iso/debian-13-netinst.iso" }
    nics:
      net0: { bridge: vmbr0 }`,
  );
  return `version: 1\nvms:${vms.join("")}\n`;
}

const sim = await startSimulator({ port: 0, nodes: NODES, seed: 11, timing: "realistic", timeScale, workersPerNode: workers });
const dir = await mkdtemp(join(tmpdir(), "pvectl-bench-prov-"));
const fmt = (n: number, d = 1) => n.toFixed(d);
try {
  // ---- pvectl ----
  const client = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
  const desired = parseSpec(specYaml(), "bench.yaml").vms.map(desiredVmFromSpec);
  sim.admin.resetAccessLog();
  const started = performance.now();
  const { plan, context } = await buildPlan(client, desired);
  if (plan.preflightErrors.length > 0) throw new Error(plan.preflightErrors.map((p) => p.message).join("\n"));
  const report = await applyPlan(client, plan, { cluster: context.cluster });
  const pvectlSeconds = (performance.now() - started) / 1000;
  const pvectlCalls = sim.accessLog({ entries: false }).total;
  await client.close();
  const failed = report.guests.filter((g) => g.result !== "created");
  if (failed.length > 0) throw new Error(`pvectl: ${failed.length} guests not created: ${failed[0]?.error}`);
  const lowerBound = (count * CREATE_SECONDS * timeScale) / (NODES * workers);
  console.log(`pvectl:   ${count} VMs created and started in ${fmt(pvectlSeconds)} s, ${pvectlCalls} API calls (${fmt(pvectlCalls / count, 2)} per VM)`);
  console.log(
    `lower bound: ${count} create tasks x ${CREATE_SECONDS * timeScale} s mean / (${NODES} nodes x ${workers} worker slots) = ${fmt(lowerBound)} s; ` +
      `pvectl is ${fmt(pvectlSeconds / lowerBound, 2)}x the lower bound (target <= 1.3x)`,
  );
  console.log(`pvectl per-endpoint calls: ${JSON.stringify(sim.accessLog({ entries: false }).byEndpoint)}`);

  if (!values["skip-playbook"]) {
    // ---- the article's playbook ----
    sim.admin.reset();
    sim.admin.setTiming({ profile: "realistic", timeScale, workersPerNode: workers });
    const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)}`)].join("\n");
    await writeFile(join(dir, "hosts.ini"), `${inventory}\n`);
    const vars = JSON.stringify({ api_host: `127.0.0.1:${sim.port}`, api_password: sim.rootPassword, pause_seconds: Number(values.pause) });
    sim.admin.resetAccessLog();
    const t0 = performance.now();
    const result = await run(
      "ansible-playbook",
      ["-i", join(dir, "hosts.ini"), join(REPO_ROOT, "bench/playbooks/provision-article.yml"), "-e", vars],
      ansibleEnv({}),
      REPO_ROOT,
      3 * 3600_000,
    );
    const playbookSeconds = (performance.now() - t0) / 1000;
    const log = sim.accessLog({ entries: false });
    if (result.code !== 0) throw new Error(`ansible-playbook failed (${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
    const created = ((await new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint }).request(
      "GET",
      "/cluster/resources",
      { type: "vm" },
    )) as Array<{ status: string }>);
    console.log(
      `playbook: ${created.length} VMs created (${created.filter((g) => g.status === "running").length} running) in ${fmt(playbookSeconds)} s, ` +
        `${log.total} API calls (${fmt(log.total / count, 2)} per VM)`,
    );
    console.log(`playbook per-endpoint calls: ${JSON.stringify(log.byEndpoint)}`);
    console.log(
      `ratios: pvectl is ${fmt(playbookSeconds / pvectlSeconds)}x faster (target >= 10x); ` +
        `API calls per VM ${fmt(pvectlCalls / count, 2)} vs ${fmt(log.total / count, 2)} = ${fmt(pvectlCalls / log.total, 2)} (target <= 0.33)`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await sim.close();
}
