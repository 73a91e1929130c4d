// `--verbose`: one stderr line per API exchange (method, path, status, ms); a password, a
// token secret or a ticket never appears in it, and stdout stays what it was.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { ConnectionPool } from "../../src/util/http/pool.js";
import { type RequestLogEntry, send, setRequestLog } from "../../src/api/transport.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { pvectl, simEnv } from "./run.js";

const PASSWORD = "Verbose-Pa55word-7781";
const LINE = /^api: (GET|POST|PUT|DELETE) \/api2\/json\/\S* (\d{3}|\S+) \d+ms$/;

describe("--verbose", () => {
  let sim: RunningSimulator;
  let dir: string;
  let spec: string;
  let tokenSecret: string;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 15, rootPassword: PASSWORD });
    dir = mkdtempSync(join(tmpdir(), "pvectl-verbose-"));
    spec = join(dir, "web.yaml");
    writeFileSync(spec, "vms:\n  - vmid: 270\n    name: v1\n    node: pve1\n    memory: 512\n");
    const root = new PveClient({
      host: "127.0.0.1",
      port: sim.port,
      user: "root@pam",
      password: PASSWORD,
      fingerprint: sim.fingerprint as string,
    });
    try {
      const token = (await root.request("POST", "/access/users/root@pam/token/ci", { privsep: 0 })) as { value: string };
      tokenSecret = token.value;
    } finally {
      await root.close();
    }
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("logs every request with a password login, without the password or the ticket", async () => {
    const result = await pvectl(["plan", "-f", spec, "--json", "--verbose"], simEnv(sim));
    assert.equal(result.code, 0, result.stderr);
    JSON.parse(result.stdout); // stdout is still only the plan
    const lines = result.stderr.trim().split("\n");
    assert.ok(lines.length >= 3, result.stderr);
    for (const line of lines) assert.match(line, LINE);
    assert.match(result.stderr, /^api: POST \/api2\/json\/access\/ticket 200 \d+ms$/m);
    assert.match(result.stderr, /^api: GET \/api2\/json\/cluster\/resources(\?\S*)? 200 \d+ms$/m);
    assert.ok(!result.stderr.includes(PASSWORD));
    assert.ok(!result.stderr.includes("PVE:root@pam:"), "no ticket");
  });

  it("works before the command name too, and never shows a token secret", async () => {
    const env = { ...simEnv(sim), PROXMOX_PASSWORD: undefined, PROXMOX_TOKEN_ID: "root@pam!ci", PROXMOX_TOKEN_SECRET: tokenSecret };
    const result = await pvectl(["--verbose", "import", "--all"], env);
    assert.match(result.stderr, /^api: GET \/api2\/json\/cluster\/resources(\?\S*)? 200 \d+ms$/m);
    assert.ok(!result.stderr.includes(tokenSecret));
  });

  it("without --verbose there is no request log", async () => {
    const result = await pvectl(["plan", "-f", spec], simEnv(sim));
    assert.doesNotMatch(result.stderr, /^api: /m);
  });

  it("masks a credential even when it appears in a path", async () => {
    const server = createServer((_req, res) => res.end('{"data":null}'));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const entries: RequestLogEntry[] = [];
    const pool = new ConnectionPool({ protocol: "http", host: "127.0.0.1", port, connections: 1, connectTimeoutMs: 5000 });
    setRequestLog((entry) => entries.push(entry));
    try {
      await send({
        pool,
        url: `http://127.0.0.1:${port}/api2/json/x?echo=${tokenSecret}`,
        method: "GET",
        headers: { authorization: `PVEAPIToken=root@pam!ci=${tokenSecret}` },
        timeoutMs: 5000,
      });
    } finally {
      setRequestLog(undefined);
      await pool.close();
      server.close();
    }
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.path, "/api2/json/x?echo=***");
    assert.equal(entries[0]?.status, 200);
  });
});
