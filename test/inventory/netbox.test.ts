// NetBox facts in the inventory, read from the NetBox simulator: matched by the vmid custom
// field (else a unique name), grouped by a NetBox field, ansible_host from the primary IP.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { InventoryApi } from "../../src/inventory/collect.js";
import { generateInventory, InventoryError, parseInventoryConfig } from "../../src/inventory/index.js";
import { NetboxClient } from "../../src/netbox/client.js";
import { type NetboxSimulator, startNetboxSimulator } from "../../src/netbox/sim/index.js";

let nb: NetboxSimulator;

before(async () => {
  nb = await startNetboxSimulator({ seed: "demo" });
  const web1 = nb.admin.idOf("virtualization/virtual-machines", { name: "web-01" });
  const eth0 = nb.admin.idOf("virtualization/interfaces", { virtual_machine_id: String(web1), name: "eth0" });
  const ip = nb.admin.create("ipam/ip-addresses", {
    address: "10.20.0.11/24",
    status: "active",
    assigned_object_type: "virtualization.vminterface",
    assigned_object_id: eth0,
  });
  nb.admin.update("virtualization/virtual-machines", web1, { status: "staged", custom_fields: { proxmox_vmid: 100 } });
  nb.admin.update("virtualization/virtual-machines", web1, { primary_ip4: ip.id });
});
after(async () => {
  await nb?.close();
});

const pve: InventoryApi = {
  async request() {
    return [
      // named differently in PVE than in NetBox: matched by the vmid custom field
      { type: "qemu", vmid: 100, name: "web-01-renamed", node: "pve1", status: "running", template: 0 },
      { type: "qemu", vmid: 101, name: "db-01", node: "pve2", status: "running", template: 0 }, // matched by its unique name
      { type: "qemu", vmid: 102, name: "lonely", node: "pve2", status: "stopped", template: 0 }, // no record
    ];
  },
};

test("guests gain netbox_* facts, keyed groups on them and ansible_host from the primary IP", async () => {
  const config = parseInventoryConfig(
    {
      netbox: { url: nb.url },
      ansibleHost: ["netbox", "agent"],
      keyedGroups: [
        { key: "netbox_tags", prefix: "nb" },
        { key: "netbox_platform", prefix: "os" },
      ],
    },
    "test",
  );
  const netbox = new NetboxClient({ url: nb.url, token: nb.token });
  const inv = await generateInventory({ api: pve, endpoint: "https://pve:8006", identity: "root@pam", netbox }, config);
  const web = inv._meta.hostvars["web-01-renamed"];
  assert.equal(web?.netbox_status, "staged");
  assert.equal(web?.netbox_site, "lab");
  assert.equal(web?.ansible_host, "10.20.0.11");
  assert.deepEqual(inv.nb_web, { hosts: ["web-01-renamed"] });
  assert.deepEqual(inv.nb_db, { hosts: ["db-01"] });
  assert.equal(inv._meta.hostvars["db-01"]?.netbox_platform, "ubuntu-24-04");
  assert.deepEqual(inv.os_ubuntu_24_04, { hosts: ["db-01"] });
  assert.equal(inv._meta.hostvars.lonely?.netbox_id, undefined);
});

test("ansibleHost netbox without a netbox section is a configuration error", () => {
  assert.throws(
    () => parseInventoryConfig({ ansibleHost: ["netbox"] }, "inv.yaml"),
    (err: unknown) =>
      err instanceof InventoryError &&
      err.userMessage().includes("ansibleHost: ansibleHost lists netbox but no netbox section says where NetBox is"),
  );
});

test("a missing NetBox token is reported with the variable to set", async () => {
  const config = parseInventoryConfig({ netbox: { url: nb.url, tokenEnv: "PVECTL_TEST_UNSET_TOKEN" } }, "test");
  await assert.rejects(
    generateInventory({ api: pve, endpoint: "https://pve:8006", identity: "root@pam" }, config),
    /reads NetBox at .* but PVECTL_TEST_UNSET_TOKEN is not set/,
  );
});
