// The inventory's shape, from a cluster's recorded /cluster/resources answer (community.proxmox's test data).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { collectGuests, type InventoryApi } from "../../src/inventory/collect.js";
import { parseInventoryConfig } from "../../src/inventory/config.js";
import { buildInventory } from "../../src/inventory/build.js";

const resources = JSON.parse(
  readFileSync(new URL("../fixtures/api-responses/community-proxmox__GET_cluster_resources__01.json", import.meta.url), "utf8"),
) as Record<string, unknown>[];
const agentAnswer = JSON.parse(
  readFileSync(
    new URL("../fixtures/api-responses/community-proxmox__GET_nodes_NODE_qemu_VMID_agent_COMMAND__01.json", import.meta.url),
    "utf8",
  ),
) as unknown;

/** A recording fake API: answers from tables and counts calls. */
function fakeApi(answers: Record<string, unknown>, resourceList: unknown = resources): InventoryApi & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async request(_method, path) {
      calls.push(path);
      if (path === "/cluster/resources") return resourceList;
      if (path in answers) {
        const answer = answers[path];
        if (answer instanceof Error) throw answer;
        return answer;
      }
      throw new Error(`unexpected ${path}`);
    },
  };
}

test("basic facts come from a single /cluster/resources call and give the community plugin's groups", async () => {
  const api = fakeApi({});
  const { guests } = await collectGuests(api, { level: "basic", concurrency: 4 });
  assert.deepEqual(api.calls, ["/cluster/resources"]);
  const inv = buildInventory(guests, parseInventoryConfig({}, "test"));
  assert.deepEqual(inv.proxmox_all_qemu, { hosts: ["pxe.home.arpa", "test1"] });
  assert.deepEqual(inv.proxmox_all_running, { hosts: ["pxe.home.arpa", "test-lxc.home.arpa-102"] });
  assert.deepEqual(inv.proxmox_pool_pool1, { hosts: ["ct-105", "test-lxc.home.arpa-104", "test1", "test1-lxc.home.arpa"] });
  assert.deepEqual(inv.proxmox_pve2_lxc, { hosts: ["ct-105", "test-lxc.home.arpa-104", "test1-lxc.home.arpa"] });
  const vars = inv._meta.hostvars.test1;
  assert.equal(vars?.proxmox_vmid, 101);
  assert.equal(vars?.proxmox_node, "pve2");
  assert.equal(vars?.proxmox_status, "stopped");
});

test("guests sharing a name get distinct host names, none keeps the bare name", async () => {
  const { guests } = await collectGuests(fakeApi({}), { level: "basic", concurrency: 1 });
  const hosts = Object.keys(buildInventory(guests, parseInventoryConfig({}, "test"))._meta.hostvars).sort();
  assert.deepEqual(hosts, ["ct-105", "pxe.home.arpa", "test-lxc.home.arpa-102", "test-lxc.home.arpa-104", "test1", "test1-lxc.home.arpa"]);
});

test("templates are not hosts unless asked, and then only in all_templates", () => {
  const guests = [
    { vmid: 9000, name: "tmpl", node: "pve1", type: "qemu" as const, status: "stopped", template: true, tags: [] },
    { vmid: 100, name: "web", node: "pve1", type: "qemu" as const, status: "running", template: false, tags: ["web"] },
  ];
  const without = buildInventory(guests, parseInventoryConfig({}, "test"));
  assert.deepEqual(Object.keys(without._meta.hostvars), ["web"]);
  const withTemplates = buildInventory(guests, parseInventoryConfig({ includeTemplates: true }, "test"));
  assert.deepEqual(withTemplates.proxmox_all_templates, { hosts: ["tmpl"] });
  assert.deepEqual(withTemplates.proxmox_all_qemu, { hosts: ["web"] });
});

test("keyed groups, prefix, filters and composed variables follow the configuration", () => {
  const guests = [
    {
      vmid: 100,
      name: "web-1",
      node: "pve1",
      type: "qemu" as const,
      status: "running",
      template: false,
      tags: ["prod", "web"],
      pool: "blue",
    },
    { vmid: 101, name: "db-1", node: "pve2", type: "qemu" as const, status: "running", template: false, tags: ["prod", "db-main"] },
    { vmid: 102, name: "web-2", node: "pve2", type: "qemu" as const, status: "stopped", template: false, tags: ["dev"] },
  ];
  const config = parseInventoryConfig(
    {
      groupPrefix: "pve_",
      keyedGroups: [
        { key: "tag", prefix: "tag" },
        { key: "node", prefix: "on" },
      ],
      filters: { tags: ["prod"] },
      compose: { ansible_user: "debian", where: "{{ proxmox_node }}/{{ proxmox_vmid }}", missing: "{{ nope }}" },
    },
    "test",
  );
  const inv = buildInventory(guests, config);
  assert.deepEqual(Object.keys(inv._meta.hostvars).sort(), ["db-1", "web-1"]);
  assert.deepEqual(inv.tag_db_main, { hosts: ["db-1"] }, "group names are made safe: '-' becomes '_'");
  assert.deepEqual(inv.tag_prod, { hosts: ["db-1", "web-1"] });
  assert.deepEqual(inv.on_pve1, { hosts: ["web-1"] });
  assert.deepEqual(inv.pve_pool_blue, { hosts: ["web-1"] });
  assert.equal(inv._meta.hostvars["web-1"]?.where, "pve1/100");
  assert.equal(inv._meta.hostvars["web-1"]?.ansible_user, "debian");
  assert.equal("missing" in (inv._meta.hostvars["web-1"] ?? {}), false, "a template with an unknown variable sets nothing");
});

test("agent level reads config for every guest and interfaces only for running QEMU guests with the agent on", async () => {
  const api = fakeApi({
    "/nodes/pve/qemu/100/config": { agent: "1", name: "pxe.home.arpa", ipconfig0: "ip=10.1.1.1/24" },
    "/nodes/pve2/qemu/101/config": { agent: "enabled=1", name: "test1", ipconfig0: "ip=10.9.9.9/24,gw=10.9.9.1" },
    "/nodes/pve/lxc/102/config": { hostname: "test-lxc", net0: "name=eth0,bridge=vmbr0,ip=dhcp" },
    "/nodes/pve2/lxc/103/config": { hostname: "x", net0: "name=eth0,bridge=vmbr0,ip=192.168.5.5/24" },
    "/nodes/pve2/lxc/104/config": new Error("boom"),
    "/nodes/pve2/lxc/105/config": {},
    "/nodes/pve/qemu/100/agent/network-get-interfaces": agentAnswer,
  });
  const { guests } = await collectGuests(api, { level: "agent", concurrency: 3 });
  assert.equal(api.calls.filter((c) => c.endsWith("/network-get-interfaces")).length, 1, "101 is stopped: no agent call");
  const inv = buildInventory(guests, parseInventoryConfig({}, "test"));
  assert.equal(inv._meta.hostvars["pxe.home.arpa"]?.ansible_host, "172.16.0.143", "loopback skipped, agent IPv4 first");
  assert.equal(inv._meta.hostvars.test1?.ansible_host, "10.9.9.9", "stopped guest falls back to cloud-init ipconfig");
  assert.equal(inv._meta.hostvars["test1-lxc.home.arpa"]?.ansible_host, "192.168.5.5");
  assert.equal(inv._meta.hostvars["test-lxc.home.arpa-102"]?.ansible_host, undefined, "DHCP gives no address");
  assert.deepEqual(inv._meta.hostvars["test-lxc.home.arpa-104"]?.proxmox_fact_errors, ["config: boom"]);
});
