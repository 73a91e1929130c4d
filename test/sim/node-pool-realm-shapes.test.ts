// Which keys PVE puts on node entries, pool members and realms (pve-manager API2/Nodes.pm,
// API2/Cluster.pm, API2/Pool.pm; a fresh domains.cfg).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { Harness } from "./guests-harness.js";
import { call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

type Row = Record<string, unknown>;

describe("node entries", () => {
  it("/nodes carries ssl_fingerprint and no cgroup-mode, even unaudited or offline", async () => {
    const h = new Harness();
    h.denied.add("/nodes/pve2 Sys.Audit");
    h.model.setNodeOnline("pve3", false);
    const nodes = (await h.call("GET", "/nodes")) as Row[];
    for (const n of nodes) {
      assert.match(String(n.ssl_fingerprint), /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, String(n.node));
      assert.ok(!("cgroup-mode" in n), String(n.node));
    }
  });

  it("/cluster/resources node entries carry cgroup-mode and no ssl_fingerprint", async () => {
    const h = new Harness();
    const nodes = (await h.call("GET", "/cluster/resources", { type: "node" })) as Row[];
    assert.equal(nodes.length, 3);
    for (const n of nodes) {
      assert.equal(n["cgroup-mode"], 2);
      assert.ok(!("ssl_fingerprint" in n));
    }
  });
});

describe("pool members", () => {
  it("carry no pool key in /pools/{poolid} and /pools?poolid=, while /cluster/resources keeps it", async () => {
    const h = new Harness();
    await h.createVm(100);
    await h.call("POST", "/pools", { poolid: "team" });
    await h.call("PUT", "/pools/team", { vms: "100", storage: "local" });
    const pool = (await h.call("GET", "/pools/team")) as { members: Row[] };
    assert.deepEqual(pool.members.map((m) => m.id).sort(), ["qemu/100", "storage/pve1/local"]);
    for (const m of pool.members) assert.ok(!("pool" in m), String(m.id));
    const [listed] = (await h.call("GET", "/pools", { poolid: "team" })) as Array<{ members: Row[] }>;
    for (const m of listed?.members ?? []) assert.ok(!("pool" in m), String(m.id));
    const resources = (await h.call("GET", "/cluster/resources", { type: "vm" })) as Row[];
    assert.equal(resources[0]?.pool, "team");
  });
});

describe("realms of a fresh simulator", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  it("marks no realm as default", async () => {
    const realms = (await call(sim, "GET", "/access/domains", { auth: root })).json.data as Row[];
    assert.deepEqual(
      realms.map((r) => r.realm),
      ["pam", "pve"],
    );
    for (const r of realms) assert.ok(!("default" in r), String(r.realm));
    const pve = (await call(sim, "GET", "/access/domains/pve", { auth: root })).json.data as Row;
    assert.ok(!("default" in pve));
  });
});
