// Two pvectl instances on one NetBox (two `netbox serve`, serve and a timer sync) used to work
// on the same records at once: both allocated addresses, both built, and a record's primary IP
// could differ from the address its guest was built with. Each run now claims its records in
// NetBox (a journal entry; the oldest live claim holds the record) and leaves records another
// run holds alone, reporting them busy; a crashed run's claims expire.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { WriteBack } from "../../src/app/netbox/writeback.js";
import { loadRecords } from "../../src/sources/netbox/records.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
// Every platform puts the address into the guest (cloud-init), so it must be the record's primary IP.
const CONFIG = DEMO_CONFIG.replace(
  "    iso: local:iso/debian-13-netinst.iso\n",
  "    iso: local:iso/debian-13-netinst.iso\n    cloudInit: { slot: ide0 }\n",
).replace("    image: local:import/noble.qcow2\n", "    image: local:import/noble.qcow2\n    cloudInit: {}\n");

function addRecords(lab: NetboxLab, count: number): void {
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = lab.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
  for (let i = 0; i < count; i++) {
    const vm = lab.nb.admin.create(VMS, { name: `app-${i}`, status: "planned", cluster, platform, vcpus: 1, memory: 512, disk: 2000 });
    lab.nb.admin.create("virtualization/interfaces", { virtual_machine: vm.id, name: "eth0" });
  }
}

function claimsLeft(lab: NetboxLab): unknown[] {
  return lab.nb.admin.list("extras/journal-entries").filter((e) => String(e.comments).startsWith("pvectl claim"));
}

describe("netbox: one run per record across instances", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("two concurrent syncs: every record built once, its primary IP is the address its guest has, no address twice", async () => {
    assert.notEqual(CONFIG, DEMO_CONFIG);
    lab = await startNetboxLab(CONFIG);
    addRecords(lab, 5);
    const [a, b] = await Promise.all([lab.sync(), lab.sync()]);

    const records = lab.nb.admin.list(VMS);
    assert.equal(records.length, 8);
    const guests = await lab.pveGuests();
    const ips = lab.nb.admin.list("ipam/ip-addresses");
    const addresses = ips.map((ip) => String(ip.address));
    assert.equal(new Set(addresses).size, addresses.length, `no address allocated twice: ${addresses.join(", ")}`);
    for (const r of records) {
      assert.equal(obj(r.status).value, "staged", String(r.name));
      assert.deepEqual(guests.get(String(r.name))?.length, 1, `one guest for ${r.name}`);
      const nics = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(r.id) }).length;
      assert.equal(ips.filter((ip) => ip.description === `pvectl: ${r.name}`).length, nics, `one address per interface of ${r.name}`);
      const vmid = Number(obj(r.custom_fields).proxmox_vmid);
      const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
      const built = /ip=([^,]+)/.exec(String(config.ipconfig0))?.[1];
      assert.equal(built, String(obj(r.primary_ip4).address), `${r.name}: NetBox's primary IP is the address the guest was built with`);
    }
    const outcomes = [...a.records, ...b.records];
    assert.deepEqual(
      outcomes.filter((o) => o.result !== "staged" && o.result !== "busy"),
      [],
      "nothing failed",
    );
    for (const busy of outcomes.filter((o) => o.result === "busy"))
      assert.match(busy.errors.join(), /another pvectl run \(.+\) is working on it/);
    assert.deepEqual(claimsLeft(lab), [], "every claim released");
  });

  test("a record another run holds is left alone and reported busy; an expired claim (a crashed run) does not count", async () => {
    lab = await startNetboxLab(CONFIG);
    const web1 = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    const web2 = lab.nb.admin.list(VMS, { name: "web-02" })[0]!;
    const claim = (id: unknown, until: Date) =>
      lab.nb.admin.create("extras/journal-entries", {
        assigned_object_type: "virtualization.virtualmachine",
        assigned_object_id: id,
        comments: `pvectl claim other-host:42:cafe until ${until.toISOString()}`,
      });
    claim(web1.id, new Date(Date.now() + 600_000));
    claim(web2.id, new Date(Date.now() - 1000));

    const report = await lab.sync();
    const byName = new Map(report.records.map((o) => [o.name, o]));
    assert.equal(byName.get("web-01")?.result, "busy", JSON.stringify(report.records));
    assert.match(byName.get("web-01")!.errors.join(), /another pvectl run \(other-host:42:cafe\) is working on it; its claim holds until/);
    assert.equal(byName.get("web-02")?.result, "staged", "the expired claim does not hold it");
    assert.equal(byName.get("db-01")?.result, "staged");
    const after = lab.nb.admin.get(VMS, Number(web1.id))!;
    assert.equal(obj(after.status).value, "planned");
    assert.equal(after.primary_ip4, null, "no address allocated for the busy record");
    assert.equal((await lab.pveGuests()).has("web-01"), false, "not built");
    assert.equal(claimsLeft(lab).length, 1, "only the other run's live claim is left (ours released, the expired one cleared)");
  });

  test("runs allocating for different records at the same moment never share an address (NetBox does not refuse duplicates here)", async () => {
    lab = await startNetboxLab(CONFIG);
    addRecords(lab, 6);
    const records = await loadRecords(lab.netbox, { names: Array.from({ length: 6 }, (_, i) => `app-${i}`) });
    // One WriteBack per record, as separate instances would have; all choose at once.
    await Promise.all(records.map((r) => new WriteBack(lab.netbox, lab.config).addresses.assign(r, [], false)));
    const taken = records.map((r) => r.vm.primary_ip4?.address);
    assert.equal(new Set(taken).size, 6, taken.join(", "));
    const objects = lab.nb.admin.list("ipam/ip-addresses").map((ip) => String(ip.address));
    assert.deepEqual(objects.sort(), [...taken].sort(), "the losers' duplicates were given back");
    const givenBack = lab.nb.admin.requests.filter((r) => r.method === "DELETE" && r.path.includes("ip-addresses")).length;
    assert.ok(givenBack > 0, "the runs did collide (else this test proves nothing)");
  });
});
