// Benchmark: `pvectl inventory` vs community.general's proxmox inventory plugin (Debian's
// ansible), both run as whole processes through `ansible-inventory --list` against the same
// simulator (HTTPS, password login), at each per-request latency given (default 0 and 20 ms:
// a local cluster, and one across a WAN link or behind a busy pveproxy).
//
// Equal data is compared with equal data: pvectl `basic` with the plugin's `want_facts: false`
// (with pvectl's default groups, and reading the plugin's own file, which gives the plugin's groups),
// and pvectl's `plugin` facts level with the plugin's `want_facts: true` (the same host
// variables; the run checks that and prints any difference). Per row: wall time, API calls,
// calls per guest, hosts, bytes of `--list` output.
//
// With --runs N every row is measured N times, the tools alternating within each round (a
// shared, noisy machine slows whichever runs during a burst, not one tool), and the medians are
// reported. --basic-only leaves out the rows with facts. --before DIR adds the same `basic` row
// for another build (a worktree with its own `npm run build`), for before/after. Then pvectl's
// own process is run alone (no Ansible) N times per build: its median wall and CPU seconds, and
// the modules it loads (ES modules and CommonJS files, through a loader hook).
//
//   npm run build && npx tsx bench/inventory.ts [--guests 2000] [--latency 0,20] [--runs 7] [--basic-only] [--before DIR] [--skip-plugin-facts]
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { startSimulator } from "../src/sim/index.js";
import { mapConcurrent } from "../src/util/concurrency.js";
import { ansibleEnv, REPO_ROOT, run } from "../test/support/conformance.js";
import { timed } from "./whole-process.js";

const { values } = parseArgs({
  options: {
    guests: { type: "string", default: "2000" },
    latency: { type: "string", default: "0,20" },
    "skip-plugin-facts": { type: "boolean", default: false },
    runs: { type: "string", default: "1" },
    "basic-only": { type: "boolean", default: false },
    before: { type: "string" },
  },
});
const runs = Number(values.runs);
const before = values.before;
if (before && !existsSync(join(before, "dist/cli/main.js"))) throw new Error(`run \`npm run build\` in ${before} first`);
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
  const client = new PveClient({
    host: "127.0.0.1",
    port: sim.port,
    user: "root@pam",
    password: sim.rootPassword,
    fingerprint: sim.fingerprint,
  });
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
  console.log(
    `populated ${guestCount} guests in ${((Date.now() - started) / 1000).toFixed(1)} s (1/3 running with the agent, 1/10 with a snapshot)`,
  );

  const env = ansibleEnv({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
  // The compiled CLI, as users run it (`npm run build` first; the bench refuses to time tsx's transpiling).
  if (!existsSync(join(REPO_ROOT, "dist/cli/main.js"))) throw new Error("run `npm run build` first: the benchmark times the compiled CLI");
  async function pvectlScript(name: string, config: string, root = REPO_ROOT): Promise<string> {
    await writeFile(join(dir, `${name}.yaml`), config);
    const script = join(dir, `${name}.sh`);
    await writeFile(script, `#!/bin/sh\nexec node '${root}/bin/pvectl.js' inventory --config '${join(dir, `${name}.yaml`)}' "$@"\n`);
    await chmod(script, 0o755);
    return script;
  }
  async function pluginConfig(wantFacts: boolean): Promise<string> {
    const file = join(dir, `${wantFacts ? "facts" : "basic"}.proxmox.yml`);
    const lines = [
      "plugin: community.general.proxmox",
      `url: https://127.0.0.1:${sim.port}`,
      "user: root@pam",
      `password: ${sim.rootPassword}`,
    ];
    await writeFile(file, [...lines, "validate_certs: false", `want_facts: ${wantFacts}`, ""].join("\n"));
    return file;
  }
  const sources = {
    basic: await pvectlScript("basic", "facts: basic\n"),
    // The plugin's YAML in pvectl's terms: its variables, its nodes group, no ansible_host or tag groups of pvectl's own.
    plugin: await pvectlScript("plugin", "facts: plugin\nconcurrency: 16\nnodesGroup: true\nansibleHost: []\nkeyedGroups: []\n"),
    pluginBasic: await pluginConfig(false),
    pluginFacts: await pluginConfig(true),
    beforeBasic: before ? await pvectlScript("before-basic", "facts: basic\n", before) : undefined,
  };
  // Equal groups without facts: pvectl reading the plugin's own file makes the plugin's groups
  // (no tag_* groups of pvectl's defaults, the nodes group), as `inventory --config` maps it.
  const pvectlOnPluginFile = join(dir, "pvectl-on-plugin-file.sh");
  await writeFile(
    pvectlOnPluginFile,
    `#!/bin/sh\nexec node '${REPO_ROOT}/bin/pvectl.js' inventory --config '${sources.pluginBasic}' "$@"\n`,
  );
  await chmod(pvectlOnPluginFile, 0o755);

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
    return {
      tool,
      latencyMs,
      seconds,
      calls: sim.accessLog({ entries: false }).total,
      hosts: names.size,
      bytes: result.stdout.length,
      inventory,
    };
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

  /** Each tool `runs` times, alternating; one row per tool with the median time (the rest is the same every run). */
  async function measureAlternating(tools: Array<[string, string]>, latencyMs: number): Promise<Row[]> {
    const times = new Map<string, number[]>();
    const last = new Map<string, Row>();
    for (let i = 0; i < runs; i++) {
      for (const [tool, source] of tools) {
        const row = await measure(tool, source, latencyMs);
        times.set(tool, [...(times.get(tool) ?? []), row.seconds]);
        last.set(tool, row);
      }
    }
    return tools.map(([tool]) => {
      const row = { ...(last.get(tool) as Row), seconds: median(times.get(tool) ?? []) };
      const perGuest = (row.calls / guestCount).toFixed(2);
      const spread =
        runs > 1 ? ` (min ${Math.min(...(times.get(tool) ?? [])).toFixed(2)}, max ${Math.max(...(times.get(tool) ?? [])).toFixed(2)})` : "";
      console.log(
        `${String(latencyMs).padStart(3)} ms  ${tool.padEnd(46)} ${row.seconds.toFixed(2).padStart(8)} s${spread} ${String(row.calls).padStart(7)} calls ${perGuest.padStart(6)}/guest ${String(row.hosts).padStart(6)} hosts ${String(row.bytes).padStart(9)} bytes`,
      );
      rows.push(row);
      return row;
    });
  }

  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  for (const latencyMs of latencies) {
    sim.admin.clearFaults();
    if (latencyMs > 0) sim.admin.injectFault({ latencyMs });
    console.log(`\nper-request latency ${latencyMs} ms`);
    const noFacts: Array<[string, string]> = [
      ["pvectl inventory (basic)", sources.basic],
      ["community.general.proxmox (want_facts: false)", sources.pluginBasic],
      ["pvectl inventory reading the plugin's file", pvectlOnPluginFile],
      ...(sources.beforeBasic ? [["pvectl inventory (basic), --before build", sources.beforeBasic] as [string, string]] : []),
    ];
    const [basic, plugin, samePlugin, old] = (await measureAlternating(noFacts, latencyMs)) as [Row, Row, Row, Row | undefined];
    console.log(
      `  no facts:   pvectl basic / plugin = ${(basic.seconds / plugin.seconds).toFixed(2)} (time ratio; below 1: pvectl faster); output ${ratio(basic.bytes, plugin.bytes)} the plugin's size`,
    );
    console.log(
      `              pvectl on the plugin's file (the plugin's groups) / plugin = ${(samePlugin.seconds / plugin.seconds).toFixed(2)}; groups ${sameGroups(samePlugin.inventory, plugin.inventory) ? "identical" : "DIFFER"}`,
    );
    if (old) console.log(`              before: ${(old.seconds / plugin.seconds).toFixed(2)} of the plugin's time`);
    if (values["basic-only"]) continue;
    const [level, facts] = (await measureAlternating(
      [
        ["pvectl inventory (plugin facts level)", sources.plugin],
        ...(values["skip-plugin-facts"] ? [] : [["community.general.proxmox (want_facts: true)", sources.pluginFacts] as [string, string]]),
      ],
      latencyMs,
    )) as [Row, Row | undefined];
    if (facts) {
      console.log(
        `  with facts: plugin ${ratio(facts.seconds, level.seconds)} the time of pvectl's plugin level; calls/guest ${(facts.calls / guestCount).toFixed(2)} vs ${(level.calls / guestCount).toFixed(2)}`,
      );
      console.log(`  equal data: ${describeDifferences(facts.inventory, level.inventory)}`);
    }
  }

  console.log(`\npvectl's own process alone (inventory --list, basic, no Ansible, ${runs} runs each, alternating)`);
  const builds: Array<[string, string]> = [["this build", REPO_ROOT], ...(before ? [["--before build", before] as [string, string]] : [])];
  const alone = new Map<string, { wall: number[]; cpu: number[] }>();
  for (let i = 0; i < runs; i++) {
    for (const [label, root] of builds) {
      const r = await timed(
        process.execPath,
        [join(root, "bin/pvectl.js"), "inventory", "--config", join(dir, "basic.yaml"), "--list"],
        env,
      );
      if (r.code !== 0) throw new Error(`${label} failed: ${r.output.slice(-2000)}`);
      const m = alone.get(label) ?? { wall: [], cpu: [] };
      m.wall.push(r.seconds);
      m.cpu.push(r.cpuSeconds);
      alone.set(label, m);
    }
  }
  for (const [label, root] of builds) {
    const m = alone.get(label) as { wall: number[]; cpu: number[] };
    console.log(
      `  ${label.padEnd(16)} median ${median(m.wall).toFixed(3)} s wall, ${median(m.cpu).toFixed(3)} CPU s; ${await countModules(root, join(dir, "basic.yaml"), env)} modules loaded`,
    );
  }
} finally {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
}

/** Whether two inventories have the same groups with the same hosts (host variables aside). */
function sameGroups(a: Inventory, b: Inventory): boolean {
  const groups = (inv: Inventory) =>
    JSON.stringify(
      Object.entries(inv)
        .filter(([name]) => name !== "_meta")
        .map(([name, g]) => [name, [...(g.hosts ?? [])].sort()])
        .sort(([x], [y]) => String(x).localeCompare(String(y))),
    );
  return groups(a) === groups(b);
}

/**
 * The modules one run loads: ES modules seen by a loader hook, plus CommonJS files in
 * require.cache (undici, for one, is CommonJS: its files never pass the ESM hook), counted once each.
 */
async function countModules(root: string, config: string, env: NodeJS.ProcessEnv): Promise<number> {
  const out = join(dir, "modules.txt");
  await writeFile(out, "");
  await writeFile(
    join(dir, "hook.mjs"),
    `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(out)}, url.slice(7) + "\\n");\n  return next(url, context);\n}\n`,
  );
  await writeFile(
    join(dir, "count.mjs"),
    `import { register, createRequire } from "node:module";\nimport { appendFileSync } from "node:fs";\nregister(${JSON.stringify(`file://${join(dir, "hook.mjs")}`)});\nconst cache = createRequire(import.meta.url).cache;\nprocess.on("exit", () => appendFileSync(${JSON.stringify(out)}, Object.keys(cache).join("\\n") + "\\n"));\n`,
  );
  const r = await run(
    process.execPath,
    ["--import", join(dir, "count.mjs"), join(root, "bin/pvectl.js"), "inventory", "--config", config, "--list"],
    env,
  );
  if (r.code !== 0) throw new Error(`module count failed: ${r.stderr}`);
  return new Set(
    readFileSync(out, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("/")),
  ).size;
}

/** How many hosts' variables differ between two inventories (0: the same data). */
function describeDifferences(theirs: Inventory, ours: Inventory): string {
  const a = theirs._meta?.hostvars ?? {};
  const b = ours._meta?.hostvars ?? {};
  const hosts = new Set([...Object.keys(a), ...Object.keys(b)]);
  const differing = [...hosts].filter((h) => JSON.stringify(sortKeys(a[h])) !== JSON.stringify(sortKeys(b[h])));
  return differing.length === 0
    ? `host variables identical for ${hosts.size} hosts`
    : `${differing.length} of ${hosts.size} hosts differ (first: ${differing[0]})`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}
