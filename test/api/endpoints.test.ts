// The endpoint wrappers: path segments are URL-encoded and path parameters are not sent
// again; where a wrapper defines its own shape (nextid as a number, permissions, agent
// interfaces, task log pages, config and pending values), the wire agrees with it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type ApiReader,
  type EnvelopeReader,
  getClusterResources,
  getNextVmid,
  getPermissions,
  getQemuAgentInterfaces,
  getQemuConfig,
  getQemuPending,
  getStorageContent,
  getTaskLog,
  getTaskStatus,
  updateQemuConfig,
} from "../../src/api/endpoints/index.js";
import { PveClient } from "../../src/api/index.js";
import type { Envelope } from "../../src/api/transport.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

interface Sent {
  method: string;
  path: string;
  params: Record<string, unknown> | undefined;
}

/** Answers every request with `data` (or the envelope `envelope`) and records what was sent. */
function recorder(data: unknown, envelope: Envelope = { data }): ApiReader & EnvelopeReader & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    async request(method: string, path: string, params?: Record<string, unknown>) {
      sent.push({ method, path, params });
      return data;
    },
    async requestEnvelope(method: string, path: string, params?: Record<string, unknown>) {
      sent.push({ method, path, params });
      return envelope;
    },
  };
}

describe("endpoint wrappers: paths", () => {
  it("URL-encodes every path segment and sends only the other parameters", async () => {
    const api = recorder([]);
    await getStorageContent(api, "pve1", "nfs store/../x", { content: "iso" });
    await getQemuConfig(api, "node?a=1", 100);
    await updateQemuConfig(api, "pve#1", 101, { tags: "a;b" });
    assert.deepEqual(api.sent, [
      { method: "GET", path: "/nodes/pve1/storage/nfs%20store%2F..%2Fx/content", params: { content: "iso" } },
      { method: "GET", path: "/nodes/node%3Fa%3D1/qemu/100/config", params: {} },
      { method: "PUT", path: "/nodes/pve%231/qemu/101/config", params: { tags: "a;b" } },
    ]);
  });

  it("puts a UPID into the path as one encoded segment", async () => {
    const upid = "UPID:pve1:000ABCDE:0098F0A1:66AB12CD:qmstart:100:ci@pve!deploy:";
    const api = recorder(null);
    await getTaskStatus(api, "pve1", upid);
    assert.equal(
      api.sent[0]?.path,
      "/nodes/pve1/tasks/UPID%3Apve1%3A000ABCDE%3A0098F0A1%3A66AB12CD%3Aqmstart%3A100%3Aci%40pve!deploy%3A/status",
    );
  });
});

describe("endpoint wrappers: shapes", () => {
  it("reads the next vmid as a number, whichever way it is sent", async () => {
    assert.equal(await getNextVmid(recorder("104")), 104);
    assert.equal(await getNextVmid(recorder(105)), 105);
  });

  it("reads permissions as a map, empty when PVE answers without data", async () => {
    assert.deepEqual(await getPermissions(recorder(null)), {});
    assert.deepEqual(await getPermissions(recorder({ "/": { "Sys.Audit": 1 } })), { "/": { "Sys.Audit": 1 } });
  });

  it("reads agent interfaces from the agent's `result`, and none from any other answer", async () => {
    const lo = { name: "lo", "ip-addresses": [{ "ip-address": "127.0.0.1", "ip-address-type": "ipv4", prefix: 8 }] };
    assert.deepEqual(await getQemuAgentInterfaces(recorder({ result: [lo] }), "pve1", 100), [lo]);
    for (const odd of [null, {}, { result: "oops" }, "text"]) {
      assert.deepEqual(await getQemuAgentInterfaces(recorder(odd), "pve1", 100), [], JSON.stringify(odd));
    }
  });

  it("reads a task log page as its lines, skipping entries without text, with PVE's total or the page's length", async () => {
    const lines = [{ n: 1, t: "starting" }, "junk", null, { n: 2 }, { n: 3, t: "TASK OK" }];
    assert.deepEqual(await getTaskLog(recorder(null, { data: lines, total: 1200 }), "pve1", "UPID:x", { start: 0, limit: 500 }), {
      lines: ["starting", "TASK OK"],
      total: 1200,
    });
    assert.deepEqual(await getTaskLog(recorder(null, { data: lines }), "pve1", "UPID:x", { start: 0, limit: 500 }), {
      lines: ["starting", "TASK OK"],
      total: 2,
    });
    assert.deepEqual(await getTaskLog(recorder(null, { data: null }), "pve1", "UPID:x", { start: 0, limit: 500 }), { lines: [], total: 0 });
  });
});

describe("endpoint wrappers against the simulator", () => {
  let sim: RunningSimulator;
  let root: PveClient;
  let created: string;

  before(async () => {
    sim = await startSimulator({ port: 0, seed: 13, config: { agentDelay: 0 } });
    root = new PveClient({ host: sim.url, user: "root@pam", password: sim.rootPassword, ca: sim.ca! });
    created = (await root.post("/nodes/{node}/qemu", {
      node: "pve1",
      vmid: 9400,
      name: "wrapped",
      cores: 2,
      agent: "1",
      net0: "virtio,bridge=vmbr0",
      start: true,
    })) as string;
    await root.waitForTask(created);
  });
  after(async () => {
    await root.close();
    await sim.close();
  });

  it("gets the next vmid as a number where the simulator, like PVE, sends a string", async () => {
    assert.equal(typeof (await root.request("GET", "/cluster/nextid")), "string");
    const next = await getNextVmid(root);
    assert.equal(typeof next, "number");
    assert.ok(Number.isInteger(next) && next >= 100);
  });

  it("finds a task by its encoded UPID and reads its log", async () => {
    const status = await getTaskStatus(root, "pve1", created);
    assert.equal(status?.status, "stopped");
    assert.equal(status?.exitstatus, "OK");
    const log = await getTaskLog(root, "pve1", created, { start: 0, limit: 500 });
    assert.ok(log.total >= 1 && log.lines.length === log.total);
    assert.equal(log.lines.at(-1), "TASK OK");
  });

  it("reads config and pending values as strings and numbers, with the config's digest", async () => {
    const config = await getQemuConfig(root, "pve1", 9400);
    assert.equal(config.cores, 2);
    assert.equal(config.name, "wrapped");
    assert.match(config.digest ?? "", /^[0-9a-f]{40}$/);
    const cores = (await getQemuPending(root, "pve1", 9400)).find((e) => e.key === "cores");
    assert.deepEqual(cores, { key: "cores", value: 2 });
  });

  it("lists nodes with their CPU count as a number", async () => {
    const nodes = await getClusterResources(root, { type: "node" });
    assert.ok(nodes.length > 0);
    for (const node of nodes) assert.equal(typeof node.maxcpu, "number", node.id);
  });

  it("reads the running guest's interfaces from its agent", async () => {
    const interfaces = await getQemuAgentInterfaces(root, "pve1", 9400);
    assert.ok(interfaces.some((i) => i.name === "lo"));
    assert.ok(
      interfaces.some((i) => (i["ip-addresses"] ?? []).some((a) => a["ip-address-type"] === "ipv4" && a["ip-address"] !== "127.0.0.1")),
    );
  });
});
