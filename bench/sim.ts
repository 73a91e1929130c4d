// Benchmark of the PVE API simulator as its users run it (a separate `pvectl sim` process,
// compiled CLI): simple GET requests per second on loopback, then, with 10,000 guests,
// `/cluster/resources` latency and the simulator process's memory.
//
//   npm run build && npx tsx bench/sim.ts [--guests 10000] [--seconds 5]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { REPO_ROOT } from "../test/conformance/helpers.js";

const { values } = parseArgs({ options: { guests: { type: "string", default: "10000" }, seconds: { type: "string", default: "5" } } });
const guestCount = Number(values.guests);
const seconds = Number(values.seconds);
if (!existsSync(join(REPO_ROOT, "dist/cli/main.js"))) throw new Error("run `npm run build` first: the benchmark runs the compiled CLI");

const child = spawn(process.execPath, [join(REPO_ROOT, "bin/pvectl.js"), "sim", "--port", "0", "--http", "--json", "--seed", "5"], { stdio: ["ignore", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const info = JSON.parse(line) as { url: string; password: string };

function rssMiB(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

const pool = new Pool(info.url, { connections: 16 });
try {
  const login = await pool.request({
    method: "POST",
    path: "/api2/json/access/ticket",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `username=root%40pam&password=${info.password}`,
  });
  const ticket = ((await login.body.json()) as { data: { ticket: string; CSRFPreventionToken: string } }).data;
  const headers = { cookie: `PVEAuthCookie=${encodeURIComponent(ticket.ticket)}`, csrfpreventiontoken: ticket.CSRFPreventionToken };

  async function get(path: string): Promise<number> {
    const res = await pool.request({ method: "GET", path, headers });
    await res.body.dump();
    return res.statusCode;
  }

  async function throughput(path: string, concurrency: number): Promise<number> {
    const until = Date.now() + seconds * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < until) {
          if ((await get(path)) !== 200) throw new Error(`GET ${path} failed`);
          done++;
        }
      }),
    );
    return done / seconds;
  }

  await throughput("/api2/json/version", 4); // warm-up
  for (const concurrency of [1, 16]) {
    console.log(`GET /version, concurrency ${String(concurrency).padStart(2)}: ${(await throughput("/api2/json/version", concurrency)).toFixed(0)} requests/s`);
  }
  const idleRss = rssMiB();

  const started = Date.now();
  let created = 0;
  await Promise.all(
    Array.from({ length: 16 }, async (_, worker) => {
      for (let i = worker; i < guestCount; i += 16) {
        const res = await pool.request({
          method: "POST",
          path: `/api2/json/nodes/pve${(i % 3) + 1}/qemu`,
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          body: `vmid=${10000 + i}&name=g${i}&memory=1024&net0=virtio%2Cbridge%3Dvmbr0&scsi0=local-lvm%3A1&tags=bench`,
        });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`create ${10000 + i} failed: ${res.statusCode}`);
        created++;
      }
    }),
  );
  console.log(`created ${created} guests in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const latencies: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = process.hrtime.bigint();
    await get("/api2/json/cluster/resources");
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(1);
  console.log(`GET /cluster/resources with ${guestCount} guests: p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`);
  console.log(`simulator process memory (RSS): ${idleRss.toFixed(0)} MiB idle, ${rssMiB().toFixed(0)} MiB with ${guestCount} guests`);
  console.log(`GET /version with ${guestCount} guests, concurrency 16: ${(await throughput("/api2/json/version", 16)).toFixed(0)} requests/s`);
} finally {
  await pool.close();
  child.kill("SIGINT");
  await once(child, "close");
}
