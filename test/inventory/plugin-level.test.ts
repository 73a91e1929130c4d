// The plugin facts level's API calls: for any cluster, one listing, one qmpstatus read per
// node with running VMs, one config per host, one agent read per running VM with the agent
// on, and one snapshot list per guest whose config names a parent: nothing for templates,
// guests left out by the filters, or guests on offline nodes.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { buildInventory } from "../../src/inventory/build.js";
import { collectGuests, type InventoryApi } from "../../src/inventory/collect.js";
import { parseInventoryConfig } from "../../src/inventory/config.js";
import { guestFilter } from "../../src/inventory/filters.js";

interface FakeGuest {
  vmid: number;
  node: string;
  type: "qemu" | "lxc";
  running: boolean;
  template: boolean;
  agent: boolean;
  snapshots: string[];
  /** Snapshots only off the current state's ancestry: the config names no parent. */
  orphan?: boolean;
  tag: string;
}

const NODES = ["pve1", "pve2", "pve3"];

const guestArb = fc.record({
  node: fc.constantFrom(...NODES),
  type: fc.constantFrom("qemu" as const, "lxc" as const),
  running: fc.boolean(),
  template: fc.boolean(),
  agent: fc.boolean(),
  snapshots: fc.array(fc.constantFrom("s1", "s2", "s3"), { maxLength: 2 }).map((s) => [...new Set(s)]),
  orphan: fc.boolean(),
  tag: fc.constantFrom("web", "db"),
});

function fakeCluster(guests: FakeGuest[], offline: string[]): InventoryApi & { calls: string[] } {
  const calls: string[] = [];
  const byPath = new Map<string, FakeGuest>();
  for (const g of guests) byPath.set(`/nodes/${g.node}/${g.type}/${g.vmid}`, g);
  return {
    calls,
    async request(_method, path) {
      calls.push(path);
      if (path === "/cluster/resources") {
        return [
          ...NODES.map((n) => ({ type: "node", node: n, status: offline.includes(n) ? "offline" : "online" })),
          ...guests.map((g) => ({
            type: g.type,
            vmid: g.vmid,
            node: g.node,
            name: `g${g.vmid}`,
            status: g.running ? "running" : "stopped",
            template: g.template ? 1 : 0,
            tags: g.tag,
          })),
        ];
      }
      const list = /^\/nodes\/([^/]+)\/qemu$/.exec(path);
      if (list)
        return guests
          .filter((g) => g.node === list[1] && g.type === "qemu")
          .map((g) => ({ vmid: g.vmid, status: g.running ? "running" : "stopped", qmpstatus: g.running ? "running" : "stopped" }));
      const [, base, leaf] = /^(\/nodes\/[^/]+\/(?:qemu|lxc)\/\d+)\/(.+)$/.exec(path) ?? [];
      const guest = base ? byPath.get(base) : undefined;
      if (!guest) throw new Error(`unexpected ${path}`);
      if (leaf === "config") {
        const config: Record<string, unknown> = { memory: 512, tags: guest.tag };
        if (guest.agent) config.agent = "1";
        if (guest.snapshots.length > 0 && !guest.orphan) config.parent = guest.snapshots.at(-1);
        return config;
      }
      if (leaf === "snapshot") return [...guest.snapshots.map((name) => ({ name })), { name: "current" }];
      if (leaf === "agent/network-get-interfaces")
        return {
          result: [
            {
              name: "eth0",
              "hardware-address": "aa:bb",
              "ip-addresses": [{ "ip-address": "10.0.0.1", "ip-address-type": "ipv4", prefix: 24 }],
            },
          ],
        };
      throw new Error(`unexpected ${path}`);
    },
  };
}

test("plugin level: the calls are exactly the listing, qmpstatus per node, config per host, agent and snapshots where they exist (every guest's with exactSnapshots)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(guestArb, { maxLength: 40 }),
      fc.subarray(NODES, { maxLength: 1 }),
      fc.option(fc.constantFrom("web", "db"), { nil: undefined }),
      fc.boolean(),
      async (drawn, offline, tag, exact) => {
        const guests = drawn.map((g, i) => ({ ...g, vmid: 100 + i, agent: g.agent && g.type === "qemu" }));
        const config = parseInventoryConfig({ facts: "plugin", ...(tag ? { filters: { tags: [tag] } } : {}) }, "test");
        const api = fakeCluster(guests, offline);
        const collected = await collectGuests(api, { level: "plugin", concurrency: 4, select: guestFilter(config), exactSnapshots: exact });
        const hosts = guests.filter((g) => !g.template && (!tag || g.tag === tag));
        const reached = hosts.filter((g) => !offline.includes(g.node));
        const runningVms = reached.filter((g) => g.type === "qemu" && g.running);
        const listed = (g: FakeGuest) => exact || (g.snapshots.length > 0 && !g.orphan);
        const expected =
          1 +
          new Set(runningVms.map((g) => g.node)).size +
          reached.length +
          runningVms.filter((g) => g.agent).length +
          reached.filter(listed).length;
        assert.equal(api.calls.length, expected, api.calls.join("\n"));

        const vars = buildInventory(collected.guests, config, { nodes: collected.nodes ?? [] })._meta.hostvars;
        for (const g of reached) {
          const host = vars[`g${g.vmid}`];
          assert.deepEqual(host?.proxmox_snapshots, listed(g) ? g.snapshots : [], `g${g.vmid}`);
          assert.equal(host?.proxmox_agent_interfaces !== undefined, g.agent && g.running, `g${g.vmid} agent interfaces`);
          if (g.type === "qemu") assert.equal(host?.proxmox_qmpstatus, g.running ? "running" : "stopped");
        }
      },
    ),
    { numRuns: 60 },
  );
});

test("a failed snapshot read keeps the host, says so, and sets no snapshot list", async () => {
  const guests: FakeGuest[] = [
    { vmid: 100, node: "pve1", type: "qemu", running: false, template: false, agent: false, snapshots: ["s1"], tag: "web" },
  ];
  const api = fakeCluster(guests, []);
  const failing: InventoryApi = {
    request: async (method, path, params) => {
      if (path.endsWith("/snapshot")) throw new Error("Permission check failed (/vms/100, VM.Audit)");
      return api.request(method, path, params);
    },
  };
  const config = parseInventoryConfig({ facts: "plugin" }, "test");
  const { guests: collected } = await collectGuests(failing, { level: "plugin", concurrency: 1 });
  const vars = buildInventory(collected, config)._meta.hostvars.g100;
  assert.equal(vars?.proxmox_fact_gathering_failed, true);
  assert.deepEqual(vars?.proxmox_fact_errors, ["snapshots: Permission check failed (/vms/100, VM.Audit)"]);
  assert.equal(vars?.proxmox_snapshots, undefined);
  assert.equal(vars?.proxmox_memory, 512, "the other facts are kept");
});

test("nodes group: every node a host, ansible_host from the cluster address only when asked and online", () => {
  const nodes = [
    { name: "pve1", online: true, address: "10.0.0.11" },
    { name: "pve2", online: false, address: "10.0.0.12" },
  ];
  const guests = [{ vmid: 100, name: "web", node: "pve1", type: "qemu" as const, status: "running", template: false, tags: [] }];
  const off = buildInventory(guests, parseInventoryConfig({}, "test"), { nodes });
  assert.equal(off.proxmox_nodes, undefined, "not without nodesGroup");
  const plain = buildInventory(guests, parseInventoryConfig({ nodesGroup: true }, "test"), { nodes });
  assert.deepEqual(plain.proxmox_nodes, { hosts: ["pve1", "pve2"] });
  assert.equal(plain._meta.hostvars.pve1, undefined);
  const addressed = buildInventory(guests, parseInventoryConfig({ nodesGroup: true, nodesAnsibleHost: true }, "test"), { nodes });
  assert.deepEqual(addressed._meta.hostvars.pve1, { ansible_host: "10.0.0.11" });
  assert.equal(addressed._meta.hostvars.pve2, undefined, "an offline node gets no address, as in the plugin");
});

test("placementFacts: false leaves out the node, volumes' storages and NICs' bridges at every level, and the per-node groups", () => {
  const config = {
    memory: 512,
    scsi0: "local-lvm:vm-100-disk-0,iothread=1,size=4G",
    ide2: "local:iso/debian.iso,media=cdrom",
    unused0: "local-lvm:vm-100-disk-1",
    net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=10",
  };
  const guests = [{ vmid: 100, name: "web", node: "pve1", type: "qemu" as const, status: "running", template: false, tags: [], config }];
  for (const facts of ["basic", "config", "plugin"] as const) {
    const placed = buildInventory(guests, parseInventoryConfig({ facts, keyedGroups: [{ key: "node", prefix: "on" }] }, "test"));
    assert.equal(placed._meta.hostvars.web?.proxmox_node, "pve1", facts);
    assert.deepEqual(placed.proxmox_pve1_qemu, { hosts: ["web"] }, facts);
    const inv = buildInventory(
      guests,
      parseInventoryConfig({ facts, placementFacts: false, keyedGroups: [{ key: "node", prefix: "on" }] }, "test"),
    );
    const vars = inv._meta.hostvars.web ?? {};
    assert.equal(vars.proxmox_node, undefined, facts);
    assert.equal(vars.proxmox_vmid, 100, facts);
    const text = JSON.stringify(vars);
    for (const placement of ["pve1", "local-lvm", "local:iso", "vmbr0"])
      assert.ok(!text.includes(placement), `${facts}: ${placement} in ${text}`);
    assert.deepEqual(
      Object.keys(inv).filter((g) => g.includes("pve1")),
      [],
      `${facts}: no group names the node`,
    );
    if (facts !== "basic") {
      assert.ok(text.includes("BC:24:11:00:00:01") && text.includes("4G"), `${facts}: what describes the guest itself stays`);
      assert.equal(vars.proxmox_unused0, undefined, `${facts}: a detached volume is nothing but where it lies`);
    }
  }
});

test("qemuExtendedStatuses puts a running VM in the group of QEMU's own state, and needs the plugin level", () => {
  const guests = [
    { vmid: 100, name: "paused", node: "pve1", type: "qemu" as const, status: "running", qmpstatus: "paused", template: false, tags: [] },
    { vmid: 101, name: "up", node: "pve1", type: "qemu" as const, status: "running", qmpstatus: "running", template: false, tags: [] },
    { vmid: 200, name: "ct", node: "pve1", type: "lxc" as const, status: "running", template: false, tags: [] },
  ];
  const plain = buildInventory(guests, parseInventoryConfig({ facts: "plugin" }, "test"));
  assert.deepEqual(plain.proxmox_all_running, { hosts: ["ct", "paused", "up"] });
  const extended = buildInventory(guests, parseInventoryConfig({ facts: "plugin", qemuExtendedStatuses: true }, "test"));
  assert.deepEqual(extended.proxmox_all_paused, { hosts: ["paused"] });
  assert.deepEqual(extended.proxmox_all_running, { hosts: ["ct", "up"] });
  assert.throws(() => parseInventoryConfig({ qemuExtendedStatuses: true }, "test"), /qemuExtendedStatuses needs facts: plugin/);
});
