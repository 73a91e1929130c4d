// Addresses into the guest: a record of a cloud-init platform without an address gets its
// primary IPv4 from writeBack.primaryIp4's prefix before the build, and the VM is built with it
// (ipconfig0 with the prefix's gateway, the platform's nameservers and search domains); a
// primary IPv6 on another interface becomes that NIC's ipconfig; plan only shows the address
// sync would take and writes nothing.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pynetboxRead } from "./pynetbox-read.js";

const VMS = "virtualization/virtual-machines";
const CONFIG = DEMO_CONFIG.replace(
  "    image: local:import/noble.qcow2\n",
  "    image: local:import/noble.qcow2\n    cloudInit:\n      nameservers: [10.20.0.53]\n      searchDomains: [lab.example.com]\n",
);

describe("netbox addresses into the guest", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("the VM is built with its NetBox addresses, gateways and DNS settings", async () => {
    assert.notEqual(CONFIG, DEMO_CONFIG);
    lab = await startNetboxLab(CONFIG);
    // The router's address is in NetBox, so it is not allocated to a guest.
    lab.nb.admin.create("ipam/ip-addresses", { address: "10.20.0.1/24", description: "router" });
    const db = lab.nb.admin.list(VMS, { name: "db-01" })[0]!;
    const eth1 = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(db.id), name: "eth1" })[0]!;
    lab.nb.admin.create("ipam/prefixes", { prefix: "2001:db8:20::/64", custom_fields: { gateway: "2001:db8:20::fe" } });
    const ip6 = lab.nb.admin.create("ipam/ip-addresses", {
      address: "2001:db8:20::10/64",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth1.id,
    });
    lab.nb.admin.update(VMS, Number(db.id), { primary_ip6: ip6.id });

    lab.nb.admin.clearRequests();
    const preview = await lab.sync({ planOnly: true });
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.method !== "GET"),
      [],
      "plan only writes nothing",
    );
    assert.match(JSON.stringify(preview.plans), /"ipconfig0":"gw=10\.20\.0\.1,ip=10\.20\.0\.2\/24"/);

    const report = await lab.sync();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    const outcome = report.records.find((r) => r.name === "db-01");
    assert.ok(
      outcome?.wrote.some((w) => w.startsWith("primary IPv4 10.20.0.")),
      JSON.stringify(outcome),
    );
    const address = String(obj(lab.nb.admin.get(VMS, Number(db.id))?.primary_ip4).address);
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${outcome?.vmid}/config`)) as Record<string, unknown>;
    assert.equal(config.ipconfig0, `gw=10.20.0.1,ip=${address}`);
    // eth1 (untagged VLAN 20 too) gets an address of VLAN 20's prefix beside its IPv6.
    assert.match(String(config.ipconfig1), /^gw=10\.20\.0\.1,gw6=2001:db8:20::fe,ip=10\.20\.0\.\d+\/24,ip6=2001:db8:20::10\/64$/);
    // As NetBox's own clients see it: the address pvectl assigned before the build is db-01's primary, on eth0.
    assert.deepEqual(
      await pynetboxRead(
        lab.nb,
        `[(v.primary_ip4.address, nb.ipam.ip_addresses.get(v.primary_ip4.id).assigned_object.name) for v in [nb.virtualization.virtual_machines.get(name="db-01")]][0]`,
      ),
      [address, "eth0"],
    );
    assert.equal(config.nameserver, "10.20.0.53");
    assert.equal(config.searchdomain, "lab.example.com");
    // Records of platforms without cloud-init keep today's behaviour: the address is recorded after the build.
    const web = report.records.find((r) => r.name === "web-01");
    const webConfig = (await lab.pve.request("GET", `/nodes/pve1/qemu/${web?.vmid}/config`)) as Record<string, unknown>;
    assert.equal(webConfig.ipconfig0, undefined);
    // A rerun converges.
    const again = await lab.sync({ selection: { status: "staged" } });
    assert.deepEqual(
      again.records.map((r) => r.guestResult),
      again.records.map(() => "unchanged"),
    );
  });
});
