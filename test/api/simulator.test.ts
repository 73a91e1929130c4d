// The client against pvectl's PVE simulator (in-process, HTTPS with its generated CA): TLS
// pin/CA/mismatch, ticket and token auth, a real permission failure, parameter errors,
// a VM create + start awaited through UPIDs, a failed task, retries and expired tickets.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PveClient, PveError } from "../../src/api/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

describe("PveClient against the simulator", () => {
  let sim: RunningSimulator;
  let root: PveClient;
  const clients: PveClient[] = [];
  const track = (client: PveClient) => {
    clients.push(client);
    return client;
  };

  before(async () => {
    sim = await startSimulator({ port: 0, seed: 7 });
    root = track(new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword, ca: sim.ca! }));
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim.close();
  });

  it("refuses the simulator's certificate without CA or pin, and accepts the fingerprint it shows", async () => {
    const plain = track(new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword }));
    const err = await plain.get("/version").catch((e: unknown) => e);
    assert.ok(err instanceof PveError);
    assert.equal(err.kind, "tls");
    assert.equal(err.serverFingerprint, sim.fingerprint);
    assert.ok(err.message.includes(`PROXMOX_FINGERPRINT=${sim.fingerprint}`));
    assert.ok(!err.message.includes(sim.rootPassword));

    const pinned = track(
      new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword, fingerprint: err.serverFingerprint! }),
    );
    const version = await pinned.get("/version");
    assert.equal(typeof version.release, "string");
  });

  it("refuses a wrong pin", async () => {
    const wrong = "00".repeat(32);
    const client = track(new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword, fingerprint: wrong }));
    const err = (await client.get("/version").catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "tls");
    assert.equal(err.code, "PIN_MISMATCH");
  });

  it("reports a wrong password", async () => {
    const client = track(new PveClient({ host: sim.url, user: "root@pam", password: "not-the-password", ca: sim.ca! }));
    const err = (await client.get("/version").catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "auth");
    assert.match(err.message, /^login as root@pam at https:\/\/127\.0\.0\.1:\d+ failed: authentication failure\. Check PROXMOX_USER/);
    assert.ok(!err.message.includes("not-the-password"));
  });

  it("creates a VM and starts it, awaiting each UPID", async () => {
    const upid = await root.post("/nodes/{node}/qemu", {
      node: "pve1",
      vmid: 9100,
      name: "client-test",
      memory: "1024",
      cores: 2,
      scsi0: "local-lvm:4",
    });
    assert.equal(typeof upid, "string");
    const created = await root.waitForTask(upid as string);
    assert.equal(created.exitstatus, "OK");
    assert.equal(created.type, "qmcreate");
    const config = await root.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve1", vmid: 9100 });
    assert.equal(config.name, "client-test");
    assert.equal(config.cores, 2);
    const started = await root.waitForTask(
      (await root.post("/nodes/{node}/qemu/{vmid}/status/start", { node: "pve1", vmid: 9100 })) as string,
    );
    assert.equal(started.type, "qmstart");
    const status = await root.get("/nodes/{node}/qemu/{vmid}/status/current", { node: "pve1", vmid: 9100 });
    assert.equal(status.status, "running");
  });

  it("fails at once on a failed task, with its log", async () => {
    sim.admin.failTasks({ type: "qmstop", message: "VM 9100 qmp command 'quit' failed - got timeout", times: 1 });
    const upid = (await root.post("/nodes/{node}/qemu/{vmid}/status/stop", { node: "pve1", vmid: 9100 })) as string;
    const err = (await root.waitForTask(upid).catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "task");
    assert.equal(err.task?.exitstatus, "VM 9100 qmp command 'quit' failed - got timeout");
    assert.equal(err.task?.logTail.at(-1), "TASK ERROR: VM 9100 qmp command 'quit' failed - got timeout");
    assert.match(
      err.message,
      /^task qmstop 9100 on node pve1 failed: VM 9100 qmp command 'quit' failed - got timeout\nlast lines of the task log:\n/,
    );
  });

  it("reports per-parameter errors of a 400", async () => {
    const err = (await root
      .request("POST", "/nodes/pve1/qemu", { vmid: 9101, cores: "many", bogus: 1 })
      .catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "http");
    assert.equal(err.status, 400);
    assert.equal(err.pveMessage, "Parameter verification failed.");
    assert.deepEqual(Object.keys(err.paramErrors ?? {}).sort(), ["bogus", "cores"]);
    assert.match(err.message, /^POST \/nodes\/pve1\/qemu failed: 400 Parameter verification failed\.\n {2}/);
  });

  it("turns a real permission failure into (path, privilege) naming the token", async () => {
    await root.post("/access/users", { userid: "auditor@pve", password: "auditor-pass-1" });
    const token = (await root.post("/access/users/{userid}/token/{tokenid}", { userid: "auditor@pve", tokenid: "ci", privsep: false })) as {
      value: string;
    };
    const client = track(new PveClient({ host: sim.url, tokenId: "auditor@pve!ci", tokenSecret: token.value, ca: sim.ca! }));
    const err = (await client.get("/nodes/{node}/qemu/{vmid}/config", { node: "pve1", vmid: 9100 }).catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "permission");
    assert.deepEqual(err.permission, { path: "/vms/9100", privilege: "VM.Audit" });
    assert.ok(err.message.includes("pveum acl modify /vms/9100 --tokens 'auditor@pve!ci' --roles <role>"));
    assert.ok(!err.message.includes(token.value));

    const bad = track(
      new PveClient({ host: sim.url, tokenId: "auditor@pve!ci", tokenSecret: "11111111-2222-3333-4444-555555555555", ca: sim.ca! }),
    );
    const authErr = (await bad.get("/version").catch((e: unknown) => e)) as PveError;
    assert.equal(authErr.kind, "auth");
    assert.equal(authErr.status, 401);
    assert.ok(!authErr.message.includes("11111111-2222-3333-4444-555555555555"));
  });

  it("retries a read through a transient 503 and never repeats a write after a dropped connection", async () => {
    sim.admin.resetAccessLog();
    sim.admin.injectFault({ method: "GET", path: "^/cluster/resources$", status: 503, message: "Service Unavailable", times: 1 });
    const resources = await root.get("/cluster/resources", { type: "vm" });
    assert.ok(resources.some((r) => r.vmid === 9100));
    sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/9100/status/reboot$", drop: true, times: 1 });
    const err = (await root
      .post("/nodes/{node}/qemu/{vmid}/status/reboot", { node: "pve1", vmid: 9100 })
      .catch((e: unknown) => e)) as PveError;
    assert.equal(err.kind, "connection");
    const entries = sim.admin.accessLog({ entries: true }).entries ?? [];
    const paths = entries.map((e) => `${e.method} ${e.path}`);
    assert.equal(paths.filter((p) => p === "GET /cluster/resources").length, 2);
    assert.equal(paths.filter((p) => p === "POST /nodes/pve1/qemu/9100/status/reboot").length, 1);
  });

  it("logs in again when the simulator's clock has expired the ticket", async () => {
    await root.get("/version");
    const logins = () => root.stats().find((s) => s.method === "POST" && s.template === "/access/ticket")?.count ?? 0;
    const before = logins();
    sim.admin.advanceClock(3 * 3600);
    assert.equal(typeof (await root.get("/version")).version, "string");
    assert.equal(logins(), before + 1);
  });
});
