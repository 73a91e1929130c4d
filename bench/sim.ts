// Benchmark of the PVE API simulator as its users run it (a separate `pvectl sim` process,
// compiled CLI): simple GET requests per second on loopback, then, with 10,000 guests,
// `/cluster/resources` latency (all guests stopped, then half of them running; repeated calls
// and calls right after a change) and the simulator process's memory.
// Over HTTPS by default (what Ansible and pvectl use; the client trusts the CA the simulator
// printed and keeps its connections alive, as both do); `--http` measures plain HTTP.
//
//   npm run build && npx tsx bench/sim.ts [--guests 10000] [--seconds 5] [--http]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { exchange } from "../src/util/http/exchange.js";
import { ConnectionPool } from "../src/util/http/pool.js";
import { certificatePolicy } from "../src/util/http/tls.js";
import { REPO_ROOT } from "../test/conformance/helpers.js";

const { values } = parseArgs({
  options: {
    guests: { type: "string", default: "10000" },
    seconds: { type: "string", default: "5" },
    http: { type: "boolean", default: false },
  },
});
const guestCount = Number(values.guests);
const seconds = Number(values.seconds);
if (!existsSync(join(REPO_ROOT, "dist/cli/main.js"))) throw new Error("run `npm run build` first: the benchmark runs the compiled CLI");

const simArgs = [join(REPO_ROOT, "bin/pvectl.js"), "sim", "--port", "0", "--json", "--seed", "5", ...(values.http ? ["--http"] : [])];
const child = spawn(process.execPath, simArgs, { stdio: ["ignore", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
const info = JSON.parse(line) as { url: string; password: string; adminToken: string; ca: string | null };
console.log(`simulator over ${values.http ? "plain HTTP" : "HTTPS (CA trusted, connections kept alive)"}: ${info.url}`);
// The admin API (/_sim) answers only with the token `pvectl sim` printed.
const adminHeaders = { "x-sim-admin-token": info.adminToken };

function rssMiB(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

// pvectl's own transport (src/util/http), as pvectl's clients connect: 16 kept-alive connections.
const origin = new URL(info.url);
const connections = new ConnectionPool({
  protocol: origin.protocol === "https:" ? "https" : "http",
  host: origin.hostname,
  port: Number(origin.port),
  connections: 16,
  connectTimeoutMs: 10_000,
  ...(info.ca ? { tls: certificatePolicy({ ca: info.ca, verify: true }) } : {}),
});
const pool = {
  async request(request: { method: string; path: string; headers: Record<string, string>; body?: string }) {
    const { method, path, headers, body } = request;
    const res = await exchange(connections, {
      url: `${info.url}${path}`,
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs: 120_000,
    });
    return { statusCode: res.status, json: (): unknown => JSON.parse(res.text) };
  },
};
try {
  const login = await pool.request({
    method: "POST",
    path: "/api2/json/access/ticket",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `username=root%40pam&password=${info.password}`,
  });
  const ticket = (login.json() as { data: { ticket: string; CSRFPreventionToken: string } }).data;
  const headers = { cookie: `PVEAuthCookie=${encodeURIComponent(ticket.ticket)}`, csrfpreventiontoken: ticket.CSRFPreventionToken };

  async function get(path: string): Promise<number> {
    return (await pool.request({ method: "GET", path, headers })).statusCode;
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
    console.log(
      `GET /version, concurrency ${String(concurrency).padStart(2)}: ${(await throughput("/api2/json/version", concurrency)).toFixed(0)} requests/s`,
    );
  }
  const idleRss = rssMiB();

  const started = Date.now();
  let created = 0;
  await Promise.all(
    Array.from({ length: 16 }, async (_, worker) => {
      for (let i = worker; i < guestCount; i += 16) {
        await post(
          `/api2/json/nodes/pve${(i % 3) + 1}/qemu`,
          `vmid=${10000 + i}&name=g${i}&memory=1024&net0=virtio%2Cbridge%3Dvmbr0&scsi0=local-lvm%3A1&tags=bench`,
        );
        created++;
      }
    }),
  );
  console.log(`created ${created} guests in ${((Date.now() - started) / 1000).toFixed(1)} s; simulator process memory: ${await memory()}`);

  /** A write as root; its `data`. */
  async function post(path: string, body: string, method = "POST"): Promise<unknown> {
    const res = await pool.request({
      method,
      path,
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${path} failed: ${res.statusCode}`);
    return (res.json() as { data: unknown }).data;
  }

  /** RSS read from /proc, with the V8 heap figures the simulator reports about itself. */
  async function memory(): Promise<string> {
    const res = await pool.request({ method: "GET", path: "/_sim/info", headers: adminHeaders });
    const m = (res.json() as { data: { memory: Record<string, number> } }).data.memory;
    const mib = (bytes = 0) => (bytes / 1024 / 1024).toFixed(0);
    return `RSS ${rssMiB().toFixed(0)} MiB (V8 heap ${mib(m.heapUsed)} MiB used of ${mib(m.heapTotal)} MiB, external ${mib(m.external)} MiB)`;
  }

  async function timedResources(): Promise<number> {
    const t0 = process.hrtime.bigint();
    if ((await get("/api2/json/cluster/resources")) !== 200) throw new Error("GET /cluster/resources failed");
    return Number(process.hrtime.bigint() - t0) / 1e6;
  }

  /** The simulator's own time for its last `count` /cluster/resources answers (from its access log). */
  async function serverTimes(count: number): Promise<number[]> {
    const res = await pool.request({ method: "GET", path: "/_sim/access-log", headers: adminHeaders });
    const log = (res.json() as { data: { entries: Array<{ endpoint: string; durationMs: number }> } }).data;
    return log.entries
      .filter((e) => e.endpoint === "/cluster/resources")
      .slice(-count)
      .map((e) => e.durationMs);
  }

  async function report(label: string, latencies: number[]): Promise<void> {
    const stats = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.toFixed(1);
      return `p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`;
    };
    console.log(`GET /cluster/resources, ${label} (${latencies.length} calls): ${stats(latencies)}`);
    console.log(`  of which the simulator's own time: ${stats(await serverTimes(latencies.length))}`);
  }

  // The simulator keeps what it read from each guest's config until something changes (as PVE
  // serves this call from cached status), so the call is measured both ways: repeated with
  // nothing in between, and right after a config change, when every guest is read again.
  async function measure(label: string): Promise<void> {
    await timedResources(); // the first call after the guests were created
    const repeated: number[] = [];
    for (let i = 0; i < 40; i++) repeated.push(await timedResources());
    await report(`${label}, repeated`, repeated);
    const afterChange: number[] = [];
    for (let i = 0; i < 15; i++) {
      await post(`/api2/json/nodes/pve${(i % 3) + 1}/qemu/${10000 + i}/config`, `description=change-${i}`, "PUT");
      afterChange.push(await timedResources());
    }
    await report(`${label}, right after a config change`, afterChange);
    console.log(`simulator process memory after these calls: ${await memory()}`);
  }

  await measure(`${guestCount} guests stopped`);
  const startedAt = Date.now();
  const running = Math.floor(guestCount / 2);
  await Promise.all(
    Array.from({ length: 16 }, async (_, worker) => {
      for (let i = worker; i < running; i += 16) await post(`/api2/json/nodes/pve${(i % 3) + 1}/qemu/${10000 + i}/status/start`, "");
    }),
  );
  console.log(`started ${running} guests in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  await measure(`${running} of ${guestCount} guests running`);

  // What an Ansible inventory does: the same call with a privilege-separated API token that
  // holds PVEAuditor, so every guest's path goes through the ACL.
  await post("/api2/json/access/users", "userid=inventory%40pve");
  const token = (await post("/api2/json/access/users/inventory%40pve/token/bench", "privsep=1")) as {
    "full-tokenid": string;
    value: string;
  };
  for (const who of ["users=inventory%40pve", "tokens=inventory%40pve%21bench"])
    await post("/api2/json/access/acl", `path=%2F&roles=PVEAuditor&${who}`, "PUT");
  const asToken: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = process.hrtime.bigint();
    const res = await pool.request({
      method: "GET",
      path: "/api2/json/cluster/resources",
      headers: { authorization: `PVEAPIToken=${token["full-tokenid"]}=${token.value}` },
    });
    if (res.statusCode !== 200) throw new Error(`GET /cluster/resources as a token failed: ${res.statusCode}`);
    asToken.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  await report(`${running} of ${guestCount} guests running, as an API token with PVEAuditor`, asToken);
  console.log(`simulator process memory (RSS): ${idleRss.toFixed(0)} MiB idle, ${rssMiB().toFixed(0)} MiB with ${guestCount} guests`);
  console.log(
    `GET /version with ${guestCount} guests, concurrency 16: ${(await throughput("/api2/json/version", 16)).toFixed(0)} requests/s`,
  );
} finally {
  await connections.close();
  child.kill("SIGINT");
  await once(child, "close");
}
