// The simulator never crashes on malformed input: seeded random requests (bad bodies, huge
// values, unknown parameters, broken property strings, bad encodings) each get an HTTP answer
// in PVE's shapes, never an internal error, and the server keeps serving afterwards.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, test } from "node:test";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

let sim: RunningSimulator;
let cookie = "";
let csrf = "";

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Answer {
  status: number;
  body: string;
}

function send(method: string, path: string, body?: string | Buffer, contentType = "application/x-www-form-urlencoded"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Cookie: cookie, CSRFPreventionToken: csrf };
    if (body !== undefined) {
      headers["Content-Type"] = contentType;
      headers["Content-Length"] = Buffer.byteLength(body);
    }
    const req = httpRequest({ host: "127.0.0.1", port: sim.port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => {
        text += d.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

before(async () => {
  sim = await startSimulator({ port: 0, https: false, seed: 11 });
  const login = await send("POST", "/api2/json/access/ticket", `username=root%40pam&password=${sim.rootPassword}`);
  const data = (JSON.parse(login.body) as { data: { ticket: string; CSRFPreventionToken: string } }).data;
  cookie = `PVEAuthCookie=${encodeURIComponent(data.ticket)}`;
  csrf = data.CSRFPreventionToken;
  const created = await send("POST", "/api2/json/nodes/pve1/qemu", "vmid=100&net0=virtio%2Cbridge%3Dvmbr0&scsi0=local-lvm%3A1");
  assert.equal(created.status, 200, created.body);
});
after(async () => {
  await sim?.close();
});

const PATHS = [
  "/api2/json/nodes/pve1/qemu",
  "/api2/json/nodes/pve1/qemu/100/config",
  "/api2/json/nodes/pve1/qemu/100/resize",
  "/api2/json/nodes/pve1/qemu/100/status/start",
  "/api2/json/nodes/pve1/qemu/100/snapshot",
  "/api2/json/nodes/pve1/lxc",
  "/api2/json/cluster/resources",
  "/api2/json/access/acl",
  "/api2/json/nodes/pve1/storage/local/content",
  "/api2/json/nodes/pve%zz/qemu",
  "/api2/json/nodes/pve1/qemu/abc/config",
  "/api2/json/nodes/pve1/qemu/99999999999999999999/config",
  "/api2/json/../../etc/passwd",
  "/api2/json/nodes/pve1/tasks/UPID%3Abroken/status",
];
const KEYS = [
  "vmid",
  "net0",
  "scsi0",
  "memory",
  "cores",
  "delete",
  "digest",
  "size",
  "disk",
  "name",
  "tags",
  "boot",
  "agent",
  "ipconfig0",
  "unknown_thing",
  "net99",
  "scsi31",
  "start",
  "path",
  "roles",
];
const VALUES = [
  "",
  "-1",
  "1e309",
  "NaN",
  "0x10",
  "virtio=ZZ:ZZ,bridge=",
  "local-lvm:vm-100-disk-0,size=-5G",
  "=,=,=",
  "model=virtio,model=e1000",
  "a".repeat(100_000),
  "%",
  "\u0000\u0001",
  "order=scsi0;;;;",
  "+999999999999T",
  "enabled=maybe",
  "\ud800",
  "[object Object]",
];

/** Raw bytes for a request line: Node's client refuses spaces, controls and non-ASCII, so those are %-escaped byte by byte (the rest, including a stray `%`, is sent as it is). */
function requestLineSafe(text: string): string {
  return text.replace(/[^\x21-\x7e]/gu, (ch) => [...Buffer.from(ch)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""));
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

function randomBody(r: () => number): { body: string | Buffer; type: string } {
  const kind = Math.floor(r() * 5);
  if (kind === 0)
    return { body: Buffer.from(Array.from({ length: 64 }, () => Math.floor(r() * 256))), type: "application/x-www-form-urlencoded" };
  if (kind === 1) return { body: "{not json", type: "application/json" };
  if (kind === 2) return { body: JSON.stringify({ [pick(r, KEYS)]: { nested: [1, 2] }, vmid: [1, 2] }), type: "application/json" };
  const pairs = Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
    const raw = `${pick(r, KEYS)}=${pick(r, VALUES)}`;
    return kind === 3
      ? raw
      : `${requestLineSafe(pick(r, KEYS))}=${requestLineSafe(pick(r, VALUES).replace(/[&=+%,;:/]/g, (c) => `%${c.charCodeAt(0).toString(16)}`))}`;
  });
  return { body: pairs.join("&"), type: "application/x-www-form-urlencoded" };
}

test("600 malformed requests: every one answered in PVE's shapes, no internal error, server still up", async () => {
  const r = rng(20261202);
  const internal: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < 600; i++) {
    const method = pick(r, ["GET", "POST", "PUT", "DELETE"] as const);
    const path = pick(r, PATHS);
    const { body, type } = randomBody(r);
    const query =
      method === "GET" || method === "DELETE" ? `?${requestLineSafe(typeof body === "string" ? body.slice(0, 2000) : "x=%")}` : "";
    const answer = await send(method, path + query, method === "GET" || method === "DELETE" ? undefined : body, type);
    assert.ok(answer.status >= 200 && answer.status < 600, `request ${i}: status ${answer.status}`);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.body.length > 0 && answer.status !== 401) {
      const parsed = JSON.parse(answer.body) as { data?: unknown; errors?: unknown };
      assert.ok("data" in parsed, `request ${i}: no PVE envelope in ${answer.body.slice(0, 200)}`);
    }
    // An answer that leaks a JavaScript error means a handler crashed on the input.
    if (/TypeError|ReferenceError|RangeError|is not a function|Cannot read prop|undefined/.test(answer.body)) {
      internal.push(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    }
  }
  assert.deepEqual(internal, [], "no request may surface an internal JavaScript error");
  // The inputs must reach validation, not only bounce off routing: most answers are 400 with per-parameter errors.
  assert.ok((statuses.get(400) ?? 0) > 200, "most malformed requests reach parameter validation");
  const alive = await send("GET", "/api2/json/version");
  assert.equal(alive.status, 200);
});

test("a 20 MB body is refused without taking the server down", async () => {
  const huge = `name=${"x".repeat(20 * 1024 * 1024)}`;
  const answer = await send("POST", "/api2/json/nodes/pve1/qemu", huge).catch((err: Error) => ({ status: -1, body: err.message }));
  assert.ok(answer.status === -1 || answer.status >= 400, `a huge body must not succeed (got ${answer.status})`);
  const alive = await send("GET", "/api2/json/version");
  assert.equal(alive.status, 200);
});
