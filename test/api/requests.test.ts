// The wire format (query vs form body, 1/0 booleans, template paths), error translation
// (400 per-parameter, 401, 403 with its (path, privilege), 500, 501), connection failures,
// timeouts, read retries, never-repeated writes, and per-endpoint accounting.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { formatStats, PveClient, PveError } from "../../src/api/index.js";
import { closedPort, ok, pveError, type Reply, type Seen, startServer, type TestServer } from "../support/api/server.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";

describe("requests", () => {
  let server: TestServer;
  let next: (req: Seen) => Reply | Promise<Reply>;
  let client: PveClient;

  before(async () => {
    server = await startServer((req) => next(req));
  });
  beforeEach(() => {
    server.seen.length = 0;
    next = () => ok(null);
    client = new PveClient({
      host: `http://127.0.0.1:${server.port}`,
      tokenId: "automation@pve!ci",
      tokenSecret: SECRET,
      readRetries: 2,
    });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it("sends the API token header and puts GET parameters in the query string, booleans as 1/0", async () => {
    next = () => ok([{ vmid: 100 }]);
    const data = await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 100, current: true, snapshot: undefined });
    assert.deepEqual(data, [{ vmid: 100 }]);
    await client.request("GET", "/cluster/resources", { type: "vm", full: true, skip: false, none: undefined });
    const [req, untyped] = server.seen;
    assert.equal(req?.method, "GET");
    assert.equal(req?.path, "/nodes/pve/qemu/100/config");
    assert.equal(req?.query.toString(), "current=1");
    assert.equal(untyped?.query.toString(), "type=vm&full=1&skip=0");
    assert.equal(req?.headers.authorization, `PVEAPIToken=automation@pve!ci=${SECRET}`);
    assert.equal(req?.headers.csrfpreventiontoken, undefined);
  });

  it("fills path templates from the parameters and sends the rest as a form body on POST/PUT", async () => {
    next = () => ok("UPID:pve:00001234:00005678:6740A1B2:qmconfig:100:automation@pve!ci:");
    await client.post("/nodes/{node}/qemu/{vmid}/config", {
      node: "pve",
      vmid: 100,
      onboot: true,
      net0: "virtio,bridge=vmbr0",
      delete: "ide2",
    });
    await client.put("/nodes/{node}/qemu/{vmid}/resize", { node: "pve", vmid: 100, disk: "scsi0", size: "+1G" });
    const [post, put] = server.seen;
    assert.equal(post?.path, "/nodes/pve/qemu/100/config");
    assert.equal(post?.headers["content-type"], "application/x-www-form-urlencoded");
    assert.equal(post?.query.toString(), "");
    assert.equal(post?.form.toString(), "onboot=1&net0=virtio%2Cbridge%3Dvmbr0&delete=ide2");
    assert.equal(put?.method, "PUT");
    assert.equal(put?.form.toString(), "disk=scsi0&size=%2B1G");
  });

  it("puts DELETE parameters in the query string and sends no body", async () => {
    await client.delete("/nodes/{node}/qemu/{vmid}", { node: "pve", vmid: 101, purge: true, "destroy-unreferenced-disks": true });
    const [req] = server.seen;
    assert.equal(req?.path, "/nodes/pve/qemu/101");
    assert.equal(req?.query.toString(), "purge=1&destroy-unreferenced-disks=1");
    assert.equal(req?.form.toString(), "");
  });

  it("encodes path values (a UPID holds ':', '@' and '!')", async () => {
    const upid = "UPID:pve:00001234:00005678:6740A1B2:qmstart:100:automation@pve!ci:";
    await client.request("GET", "/nodes/{node}/tasks/{upid}/status", { node: "pve", upid });
    assert.equal(server.seen[0]?.path, `/nodes/pve/tasks/${upid}/status`);
  });

  it("refuses a template whose placeholder has no value, before sending", async () => {
    const err = await client.request("GET", "/nodes/{node}/qemu/{vmid}/config", { node: "pve" }).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "config");
    assert.equal(err.message, "the path /nodes/{node}/qemu/{vmid}/config needs the parameter 'vmid', which was not given");
    assert.equal(server.seen.length, 0);
  });

  it("sends list parameters as repeated keys", async () => {
    await client.request("POST", "/test/list", { tags: ["a", "b"] });
    assert.equal(server.seen[0]?.form.toString(), "tags=a&tags=b");
  });

  it("refuses an object parameter, pointing at property strings", async () => {
    const err = await client.post("/nodes/pve/qemu", { vmid: 100, net0: { model: "virtio" } }).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(
      err.message,
      "parameter 'net0' is a object; PVE takes strings, numbers, booleans or lists of them (write property strings such as net0 as 'virtio,bridge=vmbr0')",
    );
  });

  it("reports a 400 with every per-parameter error (fixture: nextid on an existing vmid)", async () => {
    next = () => ({
      status: 400,
      statusText: "Parameter verification failed.",
      body: { data: null, errors: { vmid: "VM 100 already exists" } },
    });
    const err = await client.get("/cluster/nextid", { vmid: 100 }).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "http");
    assert.equal(err.status, 400);
    assert.equal(err.method, "GET");
    assert.equal(err.path, "/cluster/nextid");
    assert.equal(err.pveMessage, "Parameter verification failed.");
    assert.deepEqual(err.paramErrors, { vmid: "VM 100 already exists" });
    assert.equal(err.userMessage(), "GET /cluster/nextid failed: 400 Parameter verification failed.\n  vmid: VM 100 already exists");
    assert.equal(server.seen.length, 1, "a 400 is not retried");
  });

  it("reads PVE's message from the reason phrase when the body has none (PVE before 8.3)", async () => {
    next = () => ({ status: 500, statusText: "Configuration file 'nodes/pve/qemu-server/999.conf' does not exist", body: { data: null } });
    const err = await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 999 }).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(
      err.userMessage(),
      "GET /nodes/pve/qemu/999/config failed: 500 Configuration file 'nodes/pve/qemu-server/999.conf' does not exist",
    );
    assert.equal(server.seen.length, 1, "a deterministic 500 is not retried");
  });

  for (const message of ["QEMU guest agent is not running", "VM 101 is not running", "No QEMU guest agent configured"]) {
    it(`does not repeat a read answered '${message}' (a state, not a passing failure)`, async () => {
      next = () => pveError(500, message);
      const err = await client
        .get("/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces", { node: "pve", vmid: 101 })
        .catch((e: unknown) => e);
      assert.ok(err instanceof PveError);
      assert.equal(err.pveMessage, message);
      assert.equal(server.seen.length, 1);
    });
  }

  it("turns a 403 into (path, privilege) with a hint naming the token", async () => {
    next = () => pveError(403, "Permission check failed (/vms/100, VM.Audit)");
    const err = await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 100 }).catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "permission");
    assert.equal(err.status, 403);
    assert.deepEqual(err.permission, { path: "/vms/100", privilege: "VM.Audit" });
    assert.equal(
      err.userMessage(),
      "GET /nodes/pve/qemu/100/config was refused: Permission check failed (/vms/100, VM.Audit).\n" +
        "The API token automation@pve!ci lacks the privilege VM.Audit on /vms/100. Grant a role that has it, e.g.\n" +
        "  pveum acl modify /vms/100 --tokens 'automation@pve!ci' --roles <role>\n" +
        "A token with privilege separation needs the grant itself and its user automation@pve must have it too.",
    );
    assert.ok(!err.message.includes(SECRET));
  });

  it("names every alternative of an 'any' privilege check", async () => {
    next = () => pveError(403, "Permission check failed (/storage/local, Datastore.Allocate|Datastore.AllocateSpace)");
    const err = (await client.post("/nodes/pve/storage/local/content").catch((e: unknown) => e)) as PveError;
    assert.deepEqual(err.permission, { path: "/storage/local", privilege: "Datastore.Allocate|Datastore.AllocateSpace" });
    assert.match(err.message, /lacks any of the privileges Datastore\.Allocate, Datastore\.AllocateSpace on \/storage\/local/);
  });

  it("keeps a 403 without (path, privilege) as a permission error", async () => {
    next = () => pveError(403, "Permission check failed (user != root@pam)");
    const err = (await client.put("/nodes/pve/qemu/100/config", { args: "-x" }).catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "permission");
    assert.equal(err.permission, undefined);
    assert.equal(
      err.message,
      "PUT /nodes/pve/qemu/100/config was refused: Permission check failed (user != root@pam).\n" +
        "PVE refused this for automation@pve!ci; check the ACLs of that token (pveum user permissions 'automation@pve!ci').",
    );
  });

  it("reports a bad token (401, no body) naming the token but never its secret", async () => {
    next = () => ({ status: 401, statusText: "Authentication failed!" });
    const err = await client.get("/version").catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "auth");
    assert.equal(
      err.userMessage(),
      `authentication as automation@pve!ci failed at http://127.0.0.1:${server.port} (401 Authentication failed!). ` +
        "Check PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET: the token automation@pve!ci must exist with that secret, not be expired, and its user must be enabled.",
    );
    assert.equal(server.seen.length, 1);
  });

  it("never lets the secret through, even when the server echoes it", async () => {
    next = (req) => pveError(500, `bad header ${String(req.headers.authorization)}`);
    const err = (await client.post("/nodes/pve/qemu").catch((e: unknown) => e)) as PveError;
    assert.ok(!err.message.includes(SECRET));
    assert.ok(!String(err.pveMessage).includes(SECRET));
    assert.ok(!String(err.stack).includes(SECRET));
    assert.match(err.message, /PVEAPIToken=automation@pve!ci=\*\*\*/);
  });

  it("explains 501 (endpoint not in this PVE version)", async () => {
    next = () => pveError(501, "Method 'GET /nodes/pve/foo' not implemented");
    const err = (await client.get("/nodes/pve/foo").catch((e: unknown) => e)) as PveError;
    assert.equal(
      err.message,
      "GET /nodes/pve/foo failed: 501 Method 'GET /nodes/pve/foo' not implemented This PVE version does not offer that endpoint or method.",
    );
    assert.equal(server.seen.length, 1);
  });

  it("retries a GET on a 5xx with backoff, and succeeds when the server recovers", async () => {
    let calls = 0;
    next = () => (++calls < 3 ? pveError(503, "Service Unavailable") : ok({ release: "9.1" }));
    const started = Date.now();
    assert.deepEqual(await client.get("/version"), { release: "9.1" });
    assert.equal(server.seen.length, 3);
    assert.ok(Date.now() - started >= 400, "waited between attempts");
  });

  it("gives up after the bounded number of retries and reports the last failure", async () => {
    next = () => pveError(500, "cfs-lock 'file-user_cfg' error: got lock request timeout");
    const err = (await client.get("/access/users").catch((e: unknown) => e)) as PveError;
    assert.equal(server.seen.length, 3, "1 try + 2 retries");
    assert.equal(err.message, "GET /access/users failed: 500 cfs-lock 'file-user_cfg' error: got lock request timeout");
    const stat = client.stats().find((s) => s.template === "/access/users");
    assert.deepEqual({ count: stat?.count, errors: stat?.errors }, { count: 1, errors: 1 });
  });

  it("retries a GET after a connection reset", async () => {
    let calls = 0;
    next = () => (++calls === 1 ? { destroy: true } : ok("9.1"));
    assert.equal(await client.get("/version"), "9.1");
    assert.equal(server.seen.length, 2);
  });

  it("never repeats a write: not on 5xx, not on a reset", async () => {
    next = () => pveError(503, "Service Unavailable");
    const err = (await client.post("/nodes/{node}/qemu", { node: "pve", vmid: 100 }).catch((e: unknown) => e)) as PveError;
    assert.equal(err.status, 503);
    assert.equal(server.seen.length, 1);

    server.seen.length = 0;
    next = () => ({ destroy: true });
    const reset = (await client.delete("/nodes/pve/qemu/100").catch((e: unknown) => e)) as PveError;
    assert.equal(reset.kind, "connection");
    assert.equal(server.seen.length, 1);
    assert.match(
      reset.message,
      /^cannot connect to http:\/\/127\.0\.0\.1:\d+: the connection was (closed unexpectedly|reset by the server)\./,
    );
  });

  it("times out a request after timeoutMs and says a write may have been applied", async () => {
    // undici's response timers tick about every half second: timeouts are accurate to ~1 s.
    const slow = new PveClient({
      host: `http://127.0.0.1:${server.port}`,
      tokenId: "automation@pve!ci",
      tokenSecret: SECRET,
      timeoutMs: 1000,
    });
    next = () => ({ ...ok(null), delayMs: 4000 });
    const started = Date.now();
    const err = (await slow.post("/nodes/pve/qemu/100/status/start").catch((e: unknown) => e)) as PveError;
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 900 && elapsed < 2600, `elapsed ${elapsed} ms`);
    assert.equal(err.kind, "timeout");
    assert.equal(
      err.message,
      `POST /nodes/pve/qemu/100/status/start on http://127.0.0.1:${server.port} got no answer within 1 s. The node may be overloaded or the request slow; retry, or raise the timeout (PROXMOX_API_TIMEOUT, in seconds). The change may still have been applied: check before repeating it.`,
    );
    assert.equal(server.seen.length, 1, "a timed-out write is not repeated");
    await slow.close();
  });

  it("counts and times calls per endpoint template, concrete paths grouped under theirs", async () => {
    client.resetStats();
    next = () => ok({});
    await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 100 });
    await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve", vmid: 101 });
    await client.get("/version");
    next = () => pveError(500, "VM 102 is locked (backup)");
    await client.request("POST", "/nodes/pve/qemu/103/status/start").catch(() => {});
    await client.post("/nodes/{node}/qemu/{vmid}/status/start", { node: "pve", vmid: 102 }).catch(() => {});
    const stats = client.stats();
    assert.equal(stats[0]?.count, 2, "busiest first");
    assert.deepEqual(
      stats
        .map(({ method, template, count, errors }) => ({ method, template, count, errors }))
        .sort((a, b) => a.template.localeCompare(b.template)),
      [
        { method: "GET", template: "/nodes/{node}/qemu/{vmid}/config", count: 2, errors: 0 },
        { method: "POST", template: "/nodes/{node}/qemu/{vmid}/status/start", count: 2, errors: 2 },
        { method: "GET", template: "/version", count: 1, errors: 0 },
      ],
    );
    assert.ok(stats.every((s) => s.totalMs > 0));
    const table = formatStats(stats).split("\n");
    assert.equal(table.length, 4);
    assert.match(table[0] as string, /^endpoint +calls +avg ms +total ms +errors$/);
    assert.match(
      table.find((l) => l.startsWith("POST")) as string,
      /^POST \/nodes\/\{node\}\/qemu\/\{vmid\}\/status\/start +2 +\d+\.\d +\d+ +2$/,
    );
    client.resetStats();
    assert.deepEqual(client.stats(), []);
  });

  it("keeps to the connection limit", async () => {
    let active = 0;
    let peak = 0;
    next = async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 30));
      active -= 1;
      return ok(null);
    };
    const limited = new PveClient({
      host: `http://127.0.0.1:${server.port}`,
      tokenId: "automation@pve!ci",
      tokenSecret: SECRET,
      connections: 2,
    });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => limited.get("/nodes/{node}/qemu/{vmid}/status/current", { node: "pve", vmid: 100 + i })),
    );
    await limited.close();
    assert.equal(server.seen.length, 8);
    assert.equal(peak, 2);
  });

  it("refuses calls after close()", async () => {
    const closing = new PveClient({ host: `http://127.0.0.1:${server.port}`, tokenId: "root@pam!x1", tokenSecret: SECRET });
    await closing.close();
    await assert.rejects(closing.get("/version"), /GET \/version: the client was closed/);
  });
});

describe("connection failures", () => {
  it("wrong port: names host:port and what to check", async () => {
    const port = await closedPort();
    const client = new PveClient({ host: "127.0.0.1", port, tokenId: "automation@pve!ci", tokenSecret: SECRET, readRetries: 2 });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "connection");
    assert.equal(err.code, "ECONNREFUSED");
    assert.equal(
      err.userMessage(),
      `cannot connect to https://127.0.0.1:${port}: connection refused (nothing listens on that port, or a firewall rejects it). ` +
        "Check that PROXMOX_HOST and PROXMOX_PORT name a Proxmox VE node (the API listens on port 8006), that it is up and that pveproxy runs on it.",
    );
    assert.ok(!err.message.includes(SECRET));
  });

  it("wrong host: says the name does not resolve", async () => {
    // On a machine without a reachable DNS server the lookup may hang until the connect timeout.
    const client = new PveClient({
      host: "pve-does-not-exist.invalid",
      tokenId: "automation@pve!ci",
      tokenSecret: SECRET,
      timeoutMs: 5000,
    });
    const err = await client.get("/version").catch((e: unknown) => e);
    await client.close();
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "connection");
    assert.match(
      err.message,
      /^cannot connect to https:\/\/pve-does-not-exist\.invalid:8006: (the host name does not resolve \(DNS lookup failed\)|the host name could not be resolved right now \(DNS not answering\)|the connection timed out \(no answer from the host; a firewall may drop the packets\))\. Check that PROXMOX_HOST/,
    );
  });
});
