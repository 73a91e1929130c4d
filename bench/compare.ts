// Benchmark: the provisioning comparison in one command. N VMs (default 60) on a 3-node
// simulator over HTTPS (certificate pinned) with realistic task timing: a create takes 3 s and
// the start that PVE's create worker begins is a qmstart task of its own, 1.5 s (+-25 % each,
// 4 worker slots per node). Every tool is timed as a whole process from the command line
// (start-up, spec parsing and login included), CPU seconds from /usr/bin/time (the process and
// its children):
// - pvectl: `node bin/pvectl.js apply spec.yaml --yes --json` (the compiled CLI);
// - Ansible's best case (bench/playbooks/provision-best.yml): explicit vmids, no serial, no
//   pause, one fork per worker slot (forks 12 on 3 nodes x 4 slots), strategy free;
// - the seed article's playbook (provision-article.yml: serial 1, then starts five at a time),
//   measured twice: without its pause and with it (`pause: 5` after each create).
// pvectl's in-process figure (spec parsed and client logged in before the timer) is a separate,
// labelled line: it is not comparable with whole processes.
// The lower bound counts every create and start task over the cluster's worker slots.
//
//   npm run build && npx tsx bench/compare.ts [--vms 60] [--time-scale 1] [--workers 4] [--pause 5]
//       [--skip-best] [--skip-article] [--skip-article-nopause] [--skip-inprocess]
import { PveClient } from "../src/api/index.js";
import { applyPlan } from "../src/engine/apply.js";
import { buildPlan } from "../src/engine/plan.js";
import { parseSpec } from "../src/sources/spec/index.js";
import { desiredVmFromSpec } from "../src/resources/qemu/spec-desired.js";
import { fmt, guestNames, type Measured, NODES, nodeOf, provisionArgs, startBenchLab } from "./lab.js";
import { articleVmYaml } from "./provision-spec.js";

const args = provisionArgs("vms", "60", ["best", "article", "article-nopause", "inprocess"]);
const { count, timeScale, workers, pause } = args;
/** The simulator's realistic mean durations (sim/tasks/timing.ts): a create, then its start task. */
const CREATE_SECONDS = 3;
const START_SECONDS = 1.5;
const FIRST_VMID = 1000;

const names = guestNames("vm", count);

/** The article's VM, each with its vmid (as in the best-case playbook). */
function specYaml(): string {
  const vms = names.map((name, i) => articleVmYaml(name, FIRST_VMID + i, nodeOf(i)));
  return `version: 1\nvms:${vms.join("")}\n`;
}

interface Row {
  label: string;
  seconds: number;
  cpuSeconds?: number;
  calls: number;
  wholeProcess: boolean;
}

const lab = await startBenchLab({ seed: 11, tmpPrefix: "pvectl-bench-compare-", timing: { timeScale, workers } });
const { sim } = lab;
const rows: Row[] = [];

const row = (label: string, m: Measured): Row => ({
  label,
  seconds: m.run.seconds,
  cpuSeconds: m.run.cpuSeconds,
  calls: m.calls,
  wholeProcess: true,
});

async function runPvectl(): Promise<Row> {
  lab.fresh();
  const measured = await lab.pvectl(["apply", await lab.write("vms.yaml", specYaml()), "--yes", "--json"], "pvectl apply");
  await lab.expectRunning("qemu", count, "pvectl");
  return row("pvectl apply (whole process)", measured);
}

/** The engine in this process: spec parsed and client logged in before the timer starts. */
async function runInProcess(): Promise<Row> {
  lab.fresh();
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
  const desired = parseSpec(specYaml(), "bench.yaml").vms.map(desiredVmFromSpec);
  await client.request("GET", "/version");
  sim.admin.resetAccessLog();
  const started = performance.now();
  const { plan, context } = await buildPlan(client, desired);
  if (plan.preflightErrors.length > 0) throw new Error(plan.preflightErrors.map((p) => p.message).join("\n"));
  const report = await applyPlan(client, plan, { cluster: context.cluster });
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  const failed = report.guests.filter((g) => g.result !== "created");
  if (failed.length > 0) throw new Error(`pvectl in-process: ${failed.length} VMs not created: ${failed[0]?.error}`);
  await lab.expectRunning("qemu", count, "pvectl in-process");
  return {
    label: "pvectl engine in-process (not a whole process)",
    seconds,
    calls: sim.accessLog({ entries: false }).total,
    wholeProcess: false,
  };
}

async function runPlaybook(shape: "best" | "article", pauseSeconds: number): Promise<Row> {
  lab.fresh();
  const best = shape === "best";
  const inventory = ["[planned]", ...names.map((name, i) => `${name} pve_node=${nodeOf(i)} vmid=${FIRST_VMID + i}`)];
  const label = best
    ? `Ansible best case (vmids, forks ${NODES * workers}, strategy free)`
    : `the article's playbook, ${pauseSeconds > 0 ? `with its pause: ${pauseSeconds}` : "without its pause"}`;
  // The best case gets one fork per worker slot of the cluster (12 on the default 3 x 4).
  const forks = best ? { forks: NODES * workers, free: true } : {};
  const measured = await lab.playbook(
    { file: `provision-${shape}.yml`, inventory, vars: { pause_seconds: pauseSeconds }, ...forks },
    label,
  );
  await lab.expectRunning("qemu", count, label);
  return row(label, measured);
}

function printTable(): void {
  const pvectl = rows.find((r) => r.label.startsWith("pvectl apply"));
  // Every slot busy all the time, and no less than one VM's create then start (they cannot overlap).
  const perVm = (CREATE_SECONDS + START_SECONDS) * timeScale;
  const lowerBound = Math.max((count * perVm) / (NODES * workers), perVm);
  const header = ["tool", "wall s", "pvectl faster by", "CPU s", "CPU s per VM", "API calls per VM"];
  const lines = rows.map((r) => [
    r.label,
    fmt(r.seconds),
    pvectl && r !== pvectl && r.wholeProcess ? `${fmt(r.seconds / pvectl.seconds)}x` : "",
    r.cpuSeconds === undefined ? "(in-process)" : fmt(r.cpuSeconds, 2),
    r.cpuSeconds === undefined ? "" : fmt(r.cpuSeconds / count, 3),
    fmt(r.calls / count, 2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? "").length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(`\n${count} VMs created and started; 3 nodes x ${workers} worker slots; HTTPS; time scale ${timeScale}`);
  console.log(row(header));
  console.log(row(widths.map((w) => "-".repeat(w))));
  for (const l of lines) console.log(row(l));
  console.log(
    `lower bound: ${count} x (create ${CREATE_SECONDS} s + start ${START_SECONDS} s mean, x${timeScale}) / (${NODES} nodes x ${workers} slots) = ${fmt(lowerBound)} s` +
      (pvectl ? `; pvectl (whole process) is ${fmt(pvectl.seconds / lowerBound, 2)}x it (target <= 1.25x)` : ""),
  );
  const best = rows.find((r) => r.label.startsWith("Ansible best case"));
  // No client, however fast, finishes under the lower bound: this is the most any could be faster.
  if (best)
    console.log(`ceiling: a client at the lower bound would be ${fmt(best.seconds / lowerBound, 2)}x faster than Ansible's best case`);
  console.log("targets: >= 10x the article's playbook (with and without its pause), >= 4x Ansible's best case");
}

try {
  rows.push(await runPvectl());
  if (!args.skip("inprocess")) rows.push(await runInProcess());
  if (!args.skip("best")) rows.push(await runPlaybook("best", 0));
  if (!args.skip("article-nopause")) rows.push(await runPlaybook("article", 0));
  if (!args.skip("article")) rows.push(await runPlaybook("article", pause));
  printTable();
} finally {
  await lab.close();
}
