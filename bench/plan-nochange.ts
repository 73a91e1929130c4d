// Benchmark: a plan with nothing to change over N existing VMs (default 1,000) on a 3-node
// simulator: the guests are created by pvectl from the same spec first, then the plan is
// timed and its API calls counted. Optional per-request latency (a remote cluster).
//
//   npx tsx bench/plan-nochange.ts [--vms 1000] [--latency 0] [--read-concurrency 16]
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { applyPlan } from "../src/engine/apply.js";
import { buildPlan } from "../src/engine/plan.js";
import { planHasChanges } from "../src/plan/types.js";
import { startSimulator } from "../src/sim/index.js";
import { parseSpec } from "../src/sources/spec/index.js";
import { desiredVmFromSpec } from "../src/resources/qemu/spec-desired.js";

const { values } = parseArgs({
  options: {
    vms: { type: "string", default: "1000" },
    latency: { type: "string", default: "0" },
    "read-concurrency": { type: "string", default: "16" },
  },
});
const count = Number(values.vms);
const latencyMs = Number(values.latency);
const readConcurrency = Number(values["read-concurrency"]);

const vms = Array.from(
  { length: count },
  (_, i) => `
  - vmid: ${1000 + i}
    name: guest-${1000 + i}
    node: pve${(i % 3) + 1}
    cores: 2
    memory: 2048
    ostype: l26
    scsihw: virtio-scsi-single
    tags: [bench]
    disks:
      scsi0: { storage: local-lvm, size: 8G, discard: on }
    nics:
      net0: { bridge: vmbr0, firewall: true }`,
).join("");
const desired = parseSpec(`version: 1\nvms:${vms}\n`, "bench.yaml").vms.map(desiredVmFromSpec);

const sim = await startSimulator({ port: 0, nodes: 3, seed: 5 });
try {
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  const t0 = performance.now();
  const created = await applyPlan(client, (await buildPlan(client, desired)).plan, {
    perNodeConcurrency: 16,
    taskPoll: { minIntervalMs: 20, maxIntervalMs: 100 },
  });
  if (!created.ok) throw new Error(`setup failed: ${created.guests.find((g) => g.error)?.error}`);
  console.log(`setup: ${count} VMs created by pvectl in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (latencyMs > 0) sim.admin.injectFault({ latencyMs });

  sim.admin.resetAccessLog();
  const started = performance.now();
  const { plan } = await buildPlan(client, desired, { readConcurrency });
  const seconds = (performance.now() - started) / 1000;
  const log = sim.accessLog({ entries: false });
  if (planHasChanges(plan)) throw new Error("the plan should be empty");
  console.log(
    `no-change plan over ${count} VMs (latency ${latencyMs} ms, ${readConcurrency} reads in parallel): ${seconds.toFixed(2)} s, ` +
      `${log.total} API calls (${(log.total / count).toFixed(2)} per VM)`,
  );
  console.log(`per endpoint: ${JSON.stringify(log.byEndpoint)}`);
  await client.close();
} finally {
  await sim.close();
}
