// Benchmark: `pvectl inventory` vs community.general's proxmox inventory plugin (Debian's
// ansible), both run through `ansible-inventory --list` against the same simulator with
// 2,000 guests and a per-request latency (default 20 ms, a cluster across a WAN link or a
// busy pveproxy). Prints time and API calls for each, and the ratios.
//
//   npm run build && npx tsx bench/inventory.ts [--guests 2000] [--latency 20] [--skip-plugin-facts]
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PveClient } from "../src/api/index.js";
import { startSimulator } from "../src/sim/index.js";
import { mapConcurrent } from "../src/util/concurrency.js";
import { REPO_ROOT, ansibleEnv, run } from "../test/conformance/helpers.js";

const { values } = parseArgs({
  options: {
    guests: { type: "string", default: "2000" },
    latency: { type: "string", default: "20" },
    "skip-plugin-facts": { type: "boolean", default: false },
  },
});
const guestCount = Number(values.guests);
const latencyMs = Number(values.latency);

const sim = await startSimulator({ port: 0, nodes: 3, seed: 7 });
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
      const running = i % 3 === 0;
      await client.waitForTask(
        (await client.request("POST", `/nodes/${node}/qemu`, {
          vmid,
          name: `guest-${vmid}`,
          tags: i % 2 === 0 ? "web;prod" : "db",
          memory: 1024,
          agent: "1",
          net0: "virtio,bridge=vmbr0",
          ipconfig0: `ip=10.${Math.floor(i / 250)}.${i % 250}.10/16`,
        })) as string,
      );
      if (running) await client.waitForTask((await client.request("POST", `/nodes/${node}/qemu/${vmid}/status/start`)) as string);
    },
  );
  await client.close();
  console.log(`populated ${guestCount} guests in ${((Date.now() - started) / 1000).toFixed(1)} s; per-request latency now ${latencyMs} ms`);
  if (latencyMs > 0) sim.admin.injectFault({ latencyMs });

  const env = ansibleEnv({
    PROXMOX_HOST: "127.0.0.1",
    PROXMOX_PORT: String(sim.port),
    PROXMOX_USER: "root@pam",
    PROXMOX_PASSWORD: sim.rootPassword,
    PROXMOX_FINGERPRINT: sim.fingerprint,
  });
  const script = join(dir, "pve.sh");
  // The compiled CLI, as users run it (`npm run build` first; the bench refuses to time tsx's transpiling).
  if (!existsSync(join(REPO_ROOT, "dist/cli/main.js"))) throw new Error("run `npm run build` first: the benchmark times the compiled CLI");
  await writeFile(script, `#!/bin/sh\nexec node '${REPO_ROOT}/bin/pvectl.js' inventory "$@"\n`);
  await chmod(script, 0o755);

  interface Row {
    tool: string;
    seconds: number;
    calls: number;
    hosts: number;
  }
  const rows: Row[] = [];
  async function measure(tool: string, source: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Row> {
    sim.admin.resetAccessLog();
    const t0 = process.hrtime.bigint();
    const result = await run("ansible-inventory", ["-i", source, "--list"], { ...env, ...extraEnv }, REPO_ROOT, 3_600_000);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (result.code !== 0) throw new Error(`${tool} failed: ${result.stderr}`);
    // Hosts from every group, not only _meta.hostvars: without facts the plugin lists hosts with no variables.
    const inventory = JSON.parse(result.stdout) as Record<string, { hosts?: string[]; hostvars?: object }>;
    const names = new Set<string>(Object.keys(inventory._meta?.hostvars ?? {}));
    for (const group of Object.values(inventory)) for (const h of group.hosts ?? []) names.add(h);
    const hosts = names.size;
    const row = { tool, seconds, calls: sim.accessLog({ entries: false }).total, hosts };
    console.log(`${tool.padEnd(44)} ${seconds.toFixed(2).padStart(8)} s ${String(row.calls).padStart(7)} calls ${String(hosts).padStart(6)} hosts`);
    rows.push(row);
    return row;
  }
  async function pluginConfig(wantFacts: boolean): Promise<string> {
    const file = join(dir, `${wantFacts ? "facts" : "basic"}.proxmox.yml`);
    await writeFile(
      file,
      [
        "plugin: community.general.proxmox",
        `url: https://127.0.0.1:${sim.port}`,
        "user: root@pam",
        `password: ${sim.rootPassword}`,
        "validate_certs: false",
        `want_facts: ${wantFacts}`,
        "",
      ].join("\n"),
    );
    return file;
  }

  const basic = await measure("pvectl inventory (basic)", script);
  await writeFile(join(dir, "config.yaml"), "facts: config\nconcurrency: 16\n");
  await writeFile(join(dir, "agent.yaml"), "facts: agent\nconcurrency: 16\n");
  await writeFile(join(dir, "pve-config.sh"), `#!/bin/sh\nexec '${script}' --config '${join(dir, "config.yaml")}' "$@"\n`);
  await writeFile(join(dir, "pve-agent.sh"), `#!/bin/sh\nexec '${script}' --config '${join(dir, "agent.yaml")}' "$@"\n`);
  await chmod(join(dir, "pve-config.sh"), 0o755);
  await chmod(join(dir, "pve-agent.sh"), 0o755);
  const config = await measure("pvectl inventory (config)", join(dir, "pve-config.sh"));
  const agent = await measure("pvectl inventory (agent)", join(dir, "pve-agent.sh"));
  const plugin = await measure("community.general.proxmox (want_facts: false)", await pluginConfig(false));
  const pluginFacts = values["skip-plugin-facts"] ? undefined : await measure("community.general.proxmox (want_facts: true)", await pluginConfig(true));

  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  console.log("\nratios (plugin / pvectl):");
  console.log(`  time, no facts:   plugin ${ratio(plugin.seconds, basic.seconds)} slower than pvectl basic; calls ${plugin.calls} vs ${basic.calls}`);
  if (pluginFacts) {
    console.log(`  time, with facts: plugin ${ratio(pluginFacts.seconds, config.seconds)} slower than pvectl config, ${ratio(pluginFacts.seconds, agent.seconds)} slower than pvectl agent`);
    console.log(`  calls, with facts: plugin ${pluginFacts.calls} vs pvectl config ${config.calls} / agent ${agent.calls}`);
  }
} finally {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
}
