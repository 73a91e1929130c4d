// Addresses follow the interface's VLAN: an interface without an address gets one from the
// prefix NetBox links to its untagged VLAN (not one configured prefix for every record), each
// NIC its own, with its own prefix's recorded gateway; a VLAN without a prefix, or a prefix
// that records no gateway, is refused by name. `--plan-only` holds the addresses it shows, so
// two records and one free address plan what the run then does: one built, one refused.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { CLOUD_INIT_CONFIG } from "./fixtures.js";
import { call, obj, results } from "../support/netbox-http.js";
import { addVlanNetworks, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";
import { pynetboxRead } from "./pynetbox-read.js";

const VMS = "virtualization/virtual-machines";
const IFACES = "virtualization/interfaces";

/** The IPv4 addresses NetBox holds on each interface of a record, by interface name. */
function addressesOf(lab: NetboxLab, name: string): Record<string, string[]> {
  const vm = lab.nb.admin.list(VMS, { name })[0]!;
  const out: Record<string, string[]> = {};
  for (const iface of lab.nb.admin.list(IFACES, { virtual_machine_id: String(vm.id) }))
    out[String(iface.name)] = lab.nb.admin.list("ipam/ip-addresses", { vminterface_id: String(iface.id) }).map((ip) => String(ip.address));
  return out;
}

async function guestConfig(lab: NetboxLab, vmid: number | undefined): Promise<Record<string, unknown>> {
  return (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
}

/** A VLAN with a prefix whose free addresses are only the last `free` usable ones, and records on it. */
function nearlyFullVlan(lab: NetboxLab, free: number, records: { name: string; platform: string }[]): void {
  const site = lab.nb.admin.idOf("dcim/sites", { slug: "lab" });
  const vlan = lab.nb.admin.create("ipam/vlans", { vid: 50, name: "lab50", site });
  // 10.50.0.0/29: .1 is the gateway, .2-.6 usable; all but the last `free` are taken.
  lab.nb.admin.create("ipam/prefixes", { prefix: "10.50.0.0/29", vlan: vlan.id, custom_fields: { gateway: "10.50.0.1" } });
  for (let host = 2; host <= 6 - free; host++)
    lab.nb.admin.create("ipam/ip-addresses", { address: `10.50.0.${host}/29`, description: "taken" });
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  for (const r of records) {
    const platform = lab.nb.admin.idOf("dcim/platforms", { slug: r.platform });
    const vm = lab.nb.admin.create(VMS, { name: r.name, status: "planned", site, cluster, platform, vcpus: 1, memory: 512, disk: 2000 });
    lab.nb.admin.create(IFACES, { virtual_machine: vm.id, name: "eth0", mode: "access", untagged_vlan: vlan.id });
  }
}

describe("netbox: addresses follow the interface's VLAN", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("each NIC gets an address of its own VLAN's prefix, with that prefix's gateway; a VLAN without a prefix is refused by name", async () => {
    lab = await startNetboxLab(CLOUD_INIT_CONFIG);
    await addVlanNetworks(lab.nb);
    // A guest without cloud-init on VLAN 30 (the case): its address is recorded after the build, from VLAN 30.
    const web1 = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const storage = lab.nb.admin.idOf("ipam/vlans", { vid: "30" });
    lab.nb.admin.update(IFACES, lab.nb.admin.idOf(IFACES, { virtual_machine_id: String(web1.id) }), { untagged_vlan: storage });

    const report = await lab.sync({ selection: { names: ["app-01", "backup-01", "web-01"] } });
    const byName = new Map(report.records.map((r) => [r.name, r]));
    const app = byName.get("app-01")!;
    assert.equal(app.result, "staged", JSON.stringify(report.records));
    // VLAN 30 records its router as 10.30.0.254 (tagged gateway), so its first address is a guest's.
    assert.deepEqual(addressesOf(lab, "app-01"), { eth0: ["10.10.0.2/24"], eth1: ["10.30.0.1/24"] });
    const config = await guestConfig(lab, app.vmid);
    assert.equal(config.ipconfig0, "gw=10.10.0.1,ip=10.10.0.2/24");
    assert.equal(config.ipconfig1, "gw=10.30.0.254,ip=10.30.0.1/24");
    assert.match(String(config.net0), /tag=10/);
    assert.match(String(config.net1), /tag=30/);
    // The primary IPv4 (Ansible's ansible_host) is the first NIC's, as NetBox's own clients read it.
    assert.equal(await pynetboxRead(lab.nb, `nb.virtualization.virtual_machines.get(name="app-01").primary_ip4.address`), "10.10.0.2/24");

    assert.equal(byName.get("web-01")?.result, "staged", JSON.stringify(byName.get("web-01")));
    assert.match(
      String(obj(lab.nb.admin.get(VMS, Number(web1.id))?.primary_ip4).address),
      /^10\.30\.0\.\d+\/24$/,
      "web-01 on VLAN 30 has a VLAN 30 address",
    );

    const refused = byName.get("backup-01")!;
    assert.equal(refused.result, "invalid");
    assert.match(
      refused.errors.join("; "),
      /interface eth0 of virtual machine backup-01 \(NetBox id \d+\) is on VLAN 40 \(backup\), which has no active IPv4 prefix in NetBox/,
    );
    assert.deepEqual(addressesOf(lab, "backup-01"), { eth0: [] });
    assert.equal((await lab.pveGuests()).has("backup-01"), false, "nothing built for it");
  });

  test("a prefix that records no gateway is refused, naming it, before anything is allocated or built", async () => {
    lab = await startNetboxLab(CLOUD_INIT_CONFIG);
    await addVlanNetworks(lab.nb);
    const mgmt = lab.nb.admin.idOf("ipam/prefixes", { prefix: "10.10.0.0/24" });
    lab.nb.admin.update("ipam/prefixes", mgmt, { custom_fields: { gateway: null } });
    const report = await lab.sync({ selection: { names: ["app-01"] } });
    const outcome = report.records[0]!;
    assert.equal(outcome.result, "invalid", JSON.stringify(outcome));
    assert.match(
      outcome.errors.join("; "),
      /interface eth0 of virtual machine app-01 \(NetBox id \d+\) \(VLAN 10 \(mgmt\)\) gets its address from prefix 10\.10\.0\.0\/24 records no gateway in NetBox .* pvectl will not guess one/,
    );
    assert.deepEqual(addressesOf(lab, "app-01"), { eth0: [], eth1: [] });
    assert.deepEqual(await lab.pveGuests(), new Map());
  });

  test("plan only holds the addresses it shows: two records, one free address: one planned, one refused naming the prefix; the run agrees", async () => {
    lab = await startNetboxLab(CLOUD_INIT_CONFIG);
    nearlyFullVlan(lab, 1, [
      { name: "full-a", platform: "ubuntu-24-04" },
      { name: "full-b", platform: "ubuntu-24-04" },
    ]);
    const selection = { names: ["full-a", "full-b"] };
    const plan = await lab.sync({ planOnly: true, selection });
    const planned = new Map(plan.records.map((r) => [r.name, r]));
    assert.equal(planned.get("full-a")?.result, "planned", JSON.stringify(plan.records));
    assert.equal(planned.get("full-a")?.primaryIp4, "10.50.0.6/29");
    assert.match(JSON.stringify(plan.plans), /"ipconfig0":"gw=10\.50\.0\.1,ip=10\.50\.0\.6\/29"/);
    assert.equal(planned.get("full-b")?.result, "failed");
    assert.match(
      planned.get("full-b")!.errors.join(),
      /prefix 10\.50\.0\.0\/29 has no free address left for interface eth0 of virtual machine full-b .*10\.50\.0\.6 \(chosen for virtual machine full-a/,
    );
    assert.equal(lab.nb.admin.list("ipam/ip-addresses", { parent: "10.50.0.0/29" }).length, 4, "plan only took nothing");

    const run = await lab.sync({ selection });
    assert.deepEqual(
      run.records.map((r) => [r.name, r.result === "staged" ? "planned" : r.result]),
      plan.records.map((r) => [r.name, r.result]),
      "the run does what the plan said",
    );
    assert.deepEqual(addressesOf(lab, "full-a"), { eth0: ["10.50.0.6/29"] });
    assert.match(
      run.records.find((r) => r.name === "full-b")!.errors.join(),
      /prefix 10\.50\.0\.0\/29 has no free address left for interface eth0 of virtual machine full-b/,
    );
  });

  test("plan only and the run hand out the same addresses when records get theirs before and after the build", async () => {
    lab = await startNetboxLab(CLOUD_INIT_CONFIG);
    // debian-13 has no cloud-init: its address is written back after the build; ubuntu's before.
    nearlyFullVlan(lab, 2, [
      { name: "a-dhcp", platform: "debian-13" },
      { name: "b-ci", platform: "ubuntu-24-04" },
      { name: "c-ci", platform: "ubuntu-24-04" },
    ]);
    const selection = { names: ["a-dhcp", "b-ci", "c-ci"] };
    const plan = await lab.sync({ planOnly: true, selection });
    assert.deepEqual(
      plan.records.map((r) => [r.name, r.result, r.primaryIp4]),
      [
        ["a-dhcp", "planned", "10.50.0.5/29"],
        ["b-ci", "planned", "10.50.0.6/29"],
        ["c-ci", "failed", undefined],
      ],
    );
    const run = await lab.sync({ selection });
    assert.deepEqual(
      run.records.map((r) => [r.name, r.result]),
      [
        ["a-dhcp", "staged"],
        ["b-ci", "staged"],
        ["c-ci", "failed"],
      ],
    );
    assert.deepEqual([addressesOf(lab, "a-dhcp").eth0, addressesOf(lab, "b-ci").eth0], [["10.50.0.5/29"], ["10.50.0.6/29"]]);
  });

  test("the old writeBack.primaryIp4.prefix is refused, pointing at fallbackPrefix", () => {
    const old = CLOUD_INIT_CONFIG.replace("fallbackPrefix: 10.20.0.0/24", "prefix: 10.20.0.0/24");
    assert.notEqual(old, CLOUD_INIT_CONFIG);
    assert.throws(
      () => parseNetboxConfig(old, "netbox.yaml"),
      /writeBack\.primaryIp4\.prefix.*`prefix` gave every interface an address of one prefix, whatever its VLAN.*`fallbackPrefix`/s,
    );
  });

  test("simulator: prefixes by VLAN and family, and NetBox's rule on an interface's untagged VLAN", async () => {
    lab = await startNetboxLab(CLOUD_INIT_CONFIG);
    const nets = await addVlanNetworks(lab.nb);
    assert.deepEqual(
      results((await call(lab.nb, "GET", `/api/ipam/prefixes/?vlan_id=${nets.vlans["30"]}&family=4`)).body).map((p) => p.prefix),
      ["10.30.0.0/24"],
    );
    assert.deepEqual(
      results((await call(lab.nb, "GET", "/api/ipam/prefixes/?vlan_vid=10")).body).map((p) => p.prefix),
      ["10.10.0.0/24"],
    );
    assert.deepEqual(results((await call(lab.nb, "GET", "/api/ipam/prefixes/?family=6")).body), []);
    // A VLAN of another site cannot be an interface's untagged VLAN.
    const other = lab.nb.admin.create("dcim/sites", { name: "Other", slug: "other" });
    const foreign = lab.nb.admin.create("ipam/vlans", { vid: 60, name: "elsewhere", site: other.id });
    const iface = lab.nb.admin.idOf(IFACES, { virtual_machine_id: String(nets.twoNics), name: "eth0" });
    const refused = await call(lab.nb, "PATCH", `/api/virtualization/interfaces/${iface}/`, { untagged_vlan: foreign.id });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      untagged_vlan: [
        "The untagged VLAN (elsewhere (60)) must belong to the same site as the interface's parent virtual machine, or it must be global.",
      ],
    });
  });
});
