// Benchmark: time from a NetBox record's creation to `staged`, for 100 records arriving in
// bursts, built by `pvectl netbox serve` (event rules -> signed webhooks -> syncs of the named
// records) against `netbox sync` run on a timer (the cron'd playbook's model; --timer, default
// 60 s, an aggressive cron). Same arrivals, same clusters, fresh simulators per mode. In-process:
// both simulators (PVE 9 with realistic task timing over HTTP, NetBox) and pvectl share one Node
// process; the figure is the latency a record sees, not pvectl's CPU.
//
//   npx tsx bench/netbox-serve.ts [--records 100] [--burst 10] [--every 5] [--timer 60] [--time-scale 0.2]
import { parseArgs } from "node:util";
import { startNetboxServe } from "../src/app/netbox/serve.js";
import { syncNetbox } from "../src/app/netbox/sync.js";
import { type NetboxLab, startNetboxLab } from "../test/support/netbox-lab.js";

const { values } = parseArgs({
  options: {
    records: { type: "string", default: "100" },
    burst: { type: "string", default: "10" },
    every: { type: "string", default: "5" },
    timer: { type: "string", default: "60" },
    "time-scale": { type: "string", default: "0.2" },
  },
});
const RECORDS = Number(values.records);
const BURST = Number(values.burst);
const EVERY_MS = Number(values.every) * 1000;
const TIMER_MS = Number(values.timer) * 1000;
const TIME_SCALE = Number(values["time-scale"]);
const SECRET = "bench-secret";
const CONFIG = `
netbox: { tokenEnv: NETBOX_TOKEN }
clusters:
  pve-lab: { node: pve1, storage: local-lvm, bridge: vmbr0 }
platforms:
  debian-13: { ostype: l26, iso: local:iso/debian-13-netinst.iso }
`;
const FAST = { taskPoll: { minIntervalMs: 50, maxIntervalMs: 500 } };

/** Both simulators as the NetBox tests start them, with realistic PVE task timing and no records yet. */
async function lab(): Promise<NetboxLab> {
  const l = await startNetboxLab(CONFIG, { seed: 18, timing: "realistic", timeScale: TIME_SCALE });
  // Only the records the benchmark creates: the demo's planned VMs go.
  for (const vm of l.nb.admin.list("virtualization/virtual-machines")) l.nb.admin.remove("virtualization/virtual-machines", Number(vm.id));
  return l;
}

/** Creates the records in bursts; resolves with each record's creation time (ms), by NetBox id. */
async function arrive(l: NetboxLab): Promise<Map<number, number>> {
  const created = new Map<number, number>();
  const cluster = l.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = l.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
  for (let i = 0; i < RECORDS; i++) {
    if (i > 0 && i % BURST === 0) await new Promise((r) => setTimeout(r, EVERY_MS));
    const vm = await l.netbox.create("virtualization/virtual-machines", {
      name: `app-${String(i).padStart(3, "0")}`,
      status: "planned",
      cluster,
      platform,
      vcpus: 1,
      memory: 512,
      disk: 4096,
    });
    created.set(vm.id, performance.now());
  }
  return created;
}

/** Polls NetBox until every record is staged; time to staged per record, in seconds. */
async function stagedTimes(l: NetboxLab, created: Map<number, number>, arrived: Promise<unknown>): Promise<number[]> {
  const staged = new Map<number, number>();
  for (;;) {
    for (const vm of l.nb.admin.list("virtualization/virtual-machines", { status: "staged" }))
      if (!staged.has(Number(vm.id))) staged.set(Number(vm.id), performance.now());
    if (staged.size >= RECORDS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await arrived;
  return [...created].map(([id, t0]) => ((staged.get(id) ?? Number.NaN) - t0) / 1000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function viaServe(): Promise<number[]> {
  const l = await lab();
  const serve = await startNetboxServe({
    config: l.config,
    netbox: l.netbox,
    pveClient: () => l.pve,
    apply: FAST,
    secret: SECRET,
    port: 0,
    reconcileMs: 0,
    reconcileAtStart: false,
    log: () => {},
  });
  const hook = l.nb.admin.create("extras/webhooks", { name: "pvectl", payload_url: `${serve.url}/webhook`, secret: SECRET });
  l.nb.admin.create("extras/event-rules", {
    name: "build",
    object_types: ["virtualization.virtualmachine"],
    event_types: ["object_created"],
    action_object_type: "extras.webhook",
    action_object_id: hook.id,
  });
  const created = new Map<number, number>();
  const arrived = arrive(l).then((m) => m.forEach((v, k) => created.set(k, v)));
  const times = await stagedTimes(l, created, arrived);
  await serve.close();
  await l.close();
  return times;
}

async function viaTimer(): Promise<number[]> {
  const l = await lab();
  let stop = false;
  const timer = (async () => {
    // A cron'd sync: the first run at a random point of its period, as a record meets it.
    await new Promise((r) => setTimeout(r, TIMER_MS / 2));
    while (!stop) {
      const started = performance.now();
      await syncNetbox({ config: l.config, netbox: l.netbox, pveClient: () => l.pve, apply: FAST });
      await new Promise((r) => setTimeout(r, Math.max(0, TIMER_MS - (performance.now() - started))));
    }
  })();
  const created = new Map<number, number>();
  const arrived = arrive(l).then((m) => m.forEach((v, k) => created.set(k, v)));
  const times = await stagedTimes(l, created, arrived);
  stop = true;
  await timer;
  await l.close();
  return times;
}

const rows: [string, number[]][] = [];
rows.push([`netbox serve (webhooks, 2 s quiet period)`, await viaServe()]);
rows.push([`netbox sync every ${TIMER_MS / 1000} s`, await viaTimer()]);
console.log(
  `${RECORDS} records in bursts of ${BURST} every ${EVERY_MS / 1000} s; PVE simulator realistic timing x${TIME_SCALE} (a create ${(3 * TIME_SCALE).toFixed(1)} s), HTTP, in-process`,
);
console.log("| mode | p50 to staged | p95 to staged | max |");
console.log("|---|---|---|---|");
for (const [label, times] of rows) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `| ${label} | ${percentile(sorted, 50).toFixed(1)} s | ${percentile(sorted, 95).toFixed(1)} s | ${sorted.at(-1)!.toFixed(1)} s |`,
  );
}
const [serveTimes, timerTimes] = rows.map(([, t]) => [...t].sort((a, b) => a - b));
console.log(
  `ratio (timer / serve): p50 ${(percentile(timerTimes!, 50) / percentile(serveTimes!, 50)).toFixed(1)}x, p95 ${(percentile(timerTimes!, 95) / percentile(serveTimes!, 95)).toFixed(1)}x`,
);
