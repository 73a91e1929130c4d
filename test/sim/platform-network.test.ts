// Node network edits (pve-manager PVE/API2/Network.pm): edits land in interfaces.new, GET lists
// them with a `changes` diff, PUT applies (srvreload task), DELETE reverts; an applied bridge is
// one guests may use, a pending one is not.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RunningSimulator } from "../../src/sim/index.js";
import { call, type Credentials, login, startHttpSim } from "./platform-helpers.js";

describe("simulator: /nodes/{node}/network edits", () => {
  let sim: RunningSimulator;
  let root: Credentials;
  before(async () => {
    sim = await startHttpSim();
    root = await login(sim);
  });
  after(() => sim.close());

  const net = (method: string, path = "", params: Record<string, string | number> = {}) =>
    call(sim, method, `/nodes/pve1/network${path}`, { auth: root, params });

  async function waitTask(upid: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const status = (await call(sim, "GET", `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`, { auth: root })).json.data;
      if (status.status === "stopped") return status;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`task ${upid} did not end`);
  }

  it("lists no changes at first; a created bridge is pending, listed, and shown in the diff", async () => {
    const first = await net("GET");
    assert.equal(first.json.changes, undefined);
    assert.ok(first.json.data.some((e: { iface: string }) => e.iface === "vmbr0"));
    const created = await net("POST", "", {
      iface: "vmbr9",
      type: "bridge",
      cidr: "10.9.0.1/24",
      autostart: 1,
      bridge_vlan_aware: 1,
      comments: "lab",
    });
    assert.equal(created.status, 200, created.text);
    const listed = await net("GET");
    const vmbr9 = listed.json.data.find((e: { iface: string }) => e.iface === "vmbr9");
    assert.equal(vmbr9.type, "bridge");
    assert.equal(vmbr9.address, "10.9.0.1");
    assert.equal(vmbr9.netmask, "24");
    assert.equal(vmbr9.method, "static");
    assert.deepEqual(vmbr9.families, ["inet"]);
    assert.equal(vmbr9.active, undefined, "not up before it is applied");
    assert.match(listed.json.changes, /^--- \/etc\/network\/interfaces\n\+\+\+ \/etc\/network\/interfaces\.new\n@@ /);
    assert.match(listed.json.changes, /\n\+auto vmbr9\n\+iface vmbr9 inet static\n\+\taddress 10\.9\.0\.1\/24\n/);
    const one = await net("GET", "/vmbr9");
    assert.equal(one.json.data.bridge_vlan_aware, 1);
    const dup = await net("POST", "", { iface: "vmbr9", type: "bridge" });
    assert.equal(dup.status, 400);
    assert.deepEqual(dup.json.errors, { iface: "interface already exists" });
    const gw = await net("POST", "", { iface: "vmbr8", type: "bridge", cidr: "10.8.0.1/24", gateway: "10.8.0.254" });
    assert.match(gw.json.errors?.gateway ?? "", /Default gateway already exists on interface 'vmbr0'\./);
  });

  it("a pending bridge is no bridge for a guest; after apply it is", async () => {
    const vm = await call(sim, "POST", "/nodes/pve1/qemu", { auth: root, params: { vmid: 900, net0: "virtio,bridge=vmbr9" } });
    assert.equal(vm.status, 200, vm.text);
    await waitTask(vm.json.data);
    const early = await waitTask((await call(sim, "POST", "/nodes/pve1/qemu/900/status/start", { auth: root })).json.data);
    assert.match(String(early.exitstatus), /bridge 'vmbr9' does not exist/);
    const apply = await net("PUT");
    assert.match(apply.json.data, /:srvreload:networking:root@pam:$/);
    assert.equal((await waitTask(apply.json.data)).exitstatus, "OK");
    const listed = await net("GET");
    assert.equal(listed.json.changes, undefined);
    assert.equal(listed.json.data.find((e: { iface: string }) => e.iface === "vmbr9").active, 1);
    const started = await waitTask((await call(sim, "POST", "/nodes/pve1/qemu/900/status/start", { auth: root })).json.data);
    assert.equal(started.exitstatus, "OK");
  });

  it("update and delete edit the pending copy; revert drops it", async () => {
    assert.equal((await net("PUT", "/vmbr9", { type: "bridge", mtu: 9000, delete: "comments" })).status, 200);
    const upd = (await net("GET", "/vmbr9")).json.data;
    assert.equal(upd.mtu, "9000");
    assert.equal(upd.comments, undefined);
    assert.equal((await net("DELETE", "/vmbr9")).status, 200);
    assert.equal((await net("GET", "/vmbr9")).status, 400);
    const pending = await net("GET");
    assert.match(pending.json.changes, /\n-auto vmbr9\n/);
    assert.equal((await net("DELETE")).status, 200);
    const reverted = await net("GET");
    assert.equal(reverted.json.changes, undefined);
    assert.equal((await net("GET", "/vmbr9")).json.data.mtu, undefined, "the applied bridge is back, without the reverted mtu");
    assert.equal((await net("DELETE", "/nope0")).status, 400);
    assert.equal(
      (await net("GET", "", { type: "any_bridge" })).json.data.every((e: { type: string }) => e.type === "bridge"),
      true,
    );
  });
});
