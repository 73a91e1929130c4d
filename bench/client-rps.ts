// Client throughput and memory figures.
//   npx tsx bench/client-rps.ts [--seconds 3]
// 1. Requests per second of PveClient for a simple GET (token auth, JSON envelope) against a
//    loopback node:http server running in a child process (so client and server do not share
//    one event loop), at concurrency 1 and 16, next to the floor the client is built on (a bare
//    node:http request loop on a keep-alive Agent). (Until issue #30 it also ran a bare undici
//    loop for reference; pvectl no longer depends on undici.)
// 2. RSS and heap of a fresh process holding a PveClient, without and with the generated API
//    schema loaded (src/schema allEndpoints()).
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { PveClient } from "../src/api/index.js";

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf("--seconds") + 1] ?? 3) || 3;

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Child role 1: the loopback server. Answers every request like PVE's GET /version. */
async function serve(): Promise<void> {
  const { createServer } = await import("node:http");
  const body = JSON.stringify({ data: { version: "9.1.1", release: "9.1", repoid: "0123456789abcdef" } });
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json;charset=UTF-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
  });
}

/** Child role 2: memory of a process with a client, optionally with the schema loaded. */
async function probe(withSchema: boolean): Promise<void> {
  const client = new PveClient({
    host: "http://127.0.0.1:9",
    tokenId: "bench@pve!rps",
    tokenSecret: "00000000-0000-0000-0000-000000000000",
  });
  let endpoints = 0;
  if (withSchema) {
    const { allEndpoints } = await import("../src/schema/index.js");
    endpoints = allEndpoints().length;
  }
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  process.stdout.write(JSON.stringify({ endpoints, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal }));
  await client.close();
}

async function startServerChild(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(self, ["--serve"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`server child exited with ${code}`)));
  });
  return { child, port };
}

interface RunResult {
  rps: number;
  p50: number;
  p99: number;
  count: number;
}

/** The same loop around a bare node:http request on a keep-alive Agent: what the client is built on. */
async function measureRawHttp(port: number, concurrency: number): Promise<RunResult> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: concurrency });
  const url = `http://127.0.0.1:${port}/api2/json/version`;
  const headers = { authorization: "PVEAPIToken=bench@pve!rps=00000000-0000-0000-0000-000000000000" };
  const once = () =>
    new Promise<unknown>((resolve, reject) => {
      httpRequest(url, { agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve((JSON.parse(text) as { data: unknown }).data));
        res.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
  const result = await loop(concurrency, once);
  agent.destroy();
  return result;
}

/** Half a second of warm-up (connections, JIT), then `seconds` measured. */
async function loop(concurrency: number, once: () => Promise<unknown>, onMeasureStart: () => void = () => {}): Promise<RunResult> {
  const warmUntil = performance.now() + 500;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmUntil) await once();
    }),
  );
  onMeasureStart();
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await once();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / elapsed, p50: pick(0.5), p99: pick(0.99), count: latencies.length };
}

async function measureRps(port: number, concurrency: number): Promise<RunResult> {
  const client = new PveClient({
    host: `http://127.0.0.1:${port}`,
    tokenId: "bench@pve!rps",
    tokenSecret: "00000000-0000-0000-0000-000000000000",
    connections: concurrency,
  });
  const result = await loop(
    concurrency,
    () => client.get("/version"),
    () => client.resetStats(),
  );
  const stat = client.stats().find((s) => s.template === "/version");
  if (stat?.count !== result.count) throw new Error(`stats counted ${stat?.count} requests, the loop ${result.count}`);
  await client.close();
  return result;
}

function memory(withSchema: boolean): { endpoints: number; rss: number; heapUsed: number; heapTotal: number } {
  const run = spawnSync(process.execPath, [...process.execArgv, "--expose-gc", self, "--probe", withSchema ? "schema" : "none"], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`memory probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { endpoints: number; rss: number; heapUsed: number; heapTotal: number };
}

async function main(): Promise<void> {
  if (args[0] === "--serve") return serve();
  if (args[0] === "--probe") return probe(args[1] === "schema");

  console.log(`PveClient GET /version against a loopback node:http server (child process), ${seconds} s per run, Node ${process.version}`);
  const { child, port } = await startServerChild();
  try {
    for (const concurrency of [1, 16]) {
      // Alternated and best of two: the machine is shared, so a single run is at the mercy of its load.
      type Round = { client: RunResult; raw: RunResult };
      const runs: Round[] = [];
      for (let i = 0; i < 2; i++) {
        runs.push({
          client: await measureRps(port, concurrency),
          raw: await measureRawHttp(port, concurrency),
        });
      }
      const best = (pick: (x: Round) => RunResult) => runs.map(pick).reduce((a, b) => (b.rps > a.rps ? b : a));
      const r = best((x) => x.client);
      const raw = best((x) => x.raw);
      console.log(
        `  concurrency ${String(concurrency).padStart(2)}: PveClient ${Math.round(r.rps)} req/s (p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.count} requests); ` +
          `bare node:http ${Math.round(raw.rps)} req/s (p50 ${raw.p50.toFixed(2)} ms); client/bare = ${(r.rps / raw.rps).toFixed(2)}`,
      );
    }
  } finally {
    child.kill();
  }

  const without = memory(false);
  const withSchema = memory(true);
  console.log("Memory of a fresh process holding a PveClient (after GC):");
  console.log(`  without schema:           rss ${mb(without.rss)}, heap used ${mb(without.heapUsed)}`);
  console.log(`  with schema (${withSchema.endpoints} endpoints): rss ${mb(withSchema.rss)}, heap used ${mb(withSchema.heapUsed)}`);
  console.log(`  schema costs:             rss +${mb(withSchema.rss - without.rss)}, heap +${mb(withSchema.heapUsed - without.heapUsed)}`);
}

await main();
