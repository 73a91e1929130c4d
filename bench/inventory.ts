// Benchmark: `pvectl inventory` vs community.general's proxmox inventory plugin (Debian's
// ansible), both run as whole processes through `ansible-inventory --list` against the same
// simulator (HTTPS, password login), at each per-request latency given (default 0 and 20 ms:
// a local cluster, and one across a WAN link or behind a busy pveproxy).
//
// Equal data is compared with equal data: pvectl `basic` with the plugin's `want_facts: false`,
// and pvectl's `plugin` facts level with the plugin's `want_facts: true` (the same host
// variables; the run checks that and prints any difference). Per row: wall time, API calls,
// calls per guest, hosts, bytes of `--list` output.
//
//   npm run build && npx tsx bench/inventory.ts [--guests 2000] [--latency 0,20] [--skip-plugin-facts]
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { startSimulator } from "../src/sim/index.js";
import { mapConcurrent } from "../src/util/concurrency.js";
import { ansibleEnv, REPO_ROOT, run } from "../test/conformance/helpers.js";

const { values } = parseArgs({
  options: {
    guests: { type: "string", default: "2000" },
    latency: { type: "string", default: "0,20" },
    "skip-plugin-facts": { type: "boolean", default: false },
  },
});
const guestCount = Number(values.guests);
const latencies = values.latency.split(",").map(Number);

type Inventory = Record<string, { hosts?: string[]; hostvars?: Record<string, Record<string, unknown>> }>;

interface Row {
  tool: string;
  latencyMs: number;
  seconds: number;
  calls: number;
  hosts: number;
  bytes: number;
  inventory: Inventory;
}

// The agent answers at once (so both tools have agent interfaces to report); a third of the guests run.
const sim = await startSimulator({ port: 0, nodes: 3, seed: 7, config: { agentDelay: 0 } });
const dir = await mkdtemp(join(tmpdir(), "pvectl-bench-inv-"));
try {
  const client = new PveClient({ host: "127.0.0.1", port: sim.port, user: "root@pam", password: sim.rootPassword, fingerprint: sim.fingerprint });
  const started = Date.now();
  await mapConcurrent(
    Array.from({ length: guestCount }, (_, i) => i),
    16,
    async (i) => {
      const vmid = 1000 + i;
      const node = `pve${(i % 3) + 1}`;
      const task = async (path: string, params: Record<string, string | number> = {}) =>
        client.waitForTask((await client.request("POST", path, params)) as string);
      await task(`/nodes/${node}/qemu`, {
        vmid,
        name: `guest-${vmid}`,
        tags: i % 2 === 0 ? "web;prod" : "db",
        memory: 1024,
        agent: "1",
        net0: "virtio,bridge=vmbr0",
        ipconfig0: `ip=10.${Math.floor(i / 250)}.${i % 250}.10/16`,
      });
      // One guest in ten has a snapshot (the plugin lists snapshots of every guest; pvectl of those whose config names a parent).
      if (i % 10 === 0) await task(`/nodes/${node}/qemu/${vmid}/snapshot`, { snapname: "base" });
      if (i % 3 === 0) await task(`/nodes/${node}/qemu/${vmid}/status/start`);
    },
  );
  await client.close();
  console.log(`populated ${guestCount} guests in ${((Date.now() - started) / 1000).toFixed(1)} s (1/3 running with the agent, 1/10 with a snapshot)`);

  const env = ansibleEnv({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
  // The compiled CLI, as users run it (`npm run build` first; the bench refuses to time tsx's transpiling).
  if (!existsSync(join(REPO_ROOT, "dist/cli/main.js"))) throw new Error("run `npm run build` first: the benchmark times the compiled CLI");
  async function pvectlScript(name: string, config: string): Promise<string> {
    await writeFile(join(dir, `${name}.yaml`), config);
    const script = join(dir, `${name}.sh`);
    await writeFile(script, `#!/bin/sh\nexec node '${REPO_ROOT}/bin/pvectl.js' inventory --config '${join(dir, `${name}.yaml`)}' "$@"\n`);
    await chmod(script, 0o755);
    return script;
  }
  async function pluginConfig(wantFacts: boolean): Promise<string> {
    const file = join(dir, `${wantFacts ? "facts" : "basic"}.proxmox.yml`);
    const lines = ["plugin: community.general.proxmox", `url: https://127.0.0.1:${sim.port}`, "user: root@pam", `password: ${sim.rootPassword}`];
    await writeFile(file, [...lines, "validate_certs: false", `want_facts: ${wantFacts}`, ""].join("\n"));
    return file;
  }
  const sources = {
    basic: await pvectlScript("basic", "facts: basic\n"),
    // The plugin's YAML in pvectl's terms: its variables, its nodes group, no ansible_host or tag groups of pvectl's own.
    plugin: await pvectlScript("plugin", "facts: plugin\nconcurrency: 16\nnodesGroup: true\nansibleHost: []\nkeyedGroups: []\n"),
    pluginBasic: await pluginConfig(false),
    pluginFacts: await pluginConfig(true),
  };

  const rows: Row[] = [];
  async function measure(tool: string, source: string, latencyMs: number): Promise<Row> {
    sim.admin.resetAccessLog();
    const t0 = process.hrtime.bigint();
    const result = await run("ansible-inventory", ["-i", source, "--list"], env, REPO_ROOT, 3_600_000);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (result.code !== 0) throw new Error(`${tool} failed: ${result.stderr}`);
    // Hosts from every group, not only _meta.hostvars: without facts the plugin lists hosts with no variables.
    const inventory = JSON.parse(result.stdout) as Inventory;
    const names = new Set<string>(Object.keys(inventory._meta?.hostvars ?? {}));
    for (const group of Object.values(inventory)) for (const h of group.hosts ?? []) names.add(h);
    const row = { tool, latencyMs, seconds, calls: sim.accessLog({ entries: false }).total, hosts: names.size, bytes: result.stdout.length, inventory };
    const perGuest = (row.calls / guestCount).toFixed(2);
    console.log(
      `${String(latencyMs).padStart(3)} ms  ${tool.padEnd(42)} ${seconds.toFixed(2).padStart(8)} s ${String(row.calls).padStart(7)} calls ${perGuest.padStart(6)}/guest ${String(row.hosts).padStart(6)} hosts ${String(row.bytes).padStart(9)} bytes`,
    );
    rows.push(row);
    return row;
  }

  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  for (const latencyMs of latencies) {
    sim.admin.clearFaults();
    if (latencyMs > 0) sim.admin.injectFault({ latencyMs });
    console.log(`\nper-request latency ${latencyMs} ms`);
    const basic = await measure("pvectl inventory (basic)", sources.basic, latencyMs);
    const plugin = await measure("community.general.proxmox (want_facts: false)", sources.pluginBasic, latencyMs);
    const level = await measure("pvectl inventory (plugin facts level)", sources.plugin, latencyMs);
    const facts = values["skip-plugin-facts"] ? undefined : await measure("community.general.proxmox (want_facts: true)", sources.pluginFacts, latencyMs);
    console.log(`  no facts:   plugin ${ratio(plugin.seconds, basic.seconds)} the time of pvectl basic; output ${ratio(basic.bytes, plugin.bytes)} the plugin's size`);
    if (facts) {
      console.log(`  with facts: plugin ${ratio(facts.seconds, level.seconds)} the time of pvectl's plugin level; calls/guest ${(facts.calls / guestCount).toFixed(2)} vs ${(level.calls / guestCount).toFixed(2)}`);
      console.log(`  equal data: ${describeDifferences(facts.inventory, level.inventory)}`);
    }
  }
} finally {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
}

/** How many hosts' variables differ between two inventories (0: the same data). */
function describeDifferences(theirs: Inventory, ours: Inventory): string {
  const a = theirs._meta?.hostvars ?? {};
  const b = ours._meta?.hostvars ?? {};
  const hosts = new Set([...Object.keys(a), ...Object.keys(b)]);
  const differing = [...hosts].filter((h) => JSON.stringify(sortKeys(a[h])) !== JSON.stringify(sortKeys(b[h])));
  return differing.length === 0 ? `host variables identical for ${hosts.size} hosts` : `${differing.length} of ${hosts.size} hosts differ (first: ${differing[0]})`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, sortKeys(v)]));
}
