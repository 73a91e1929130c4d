// Decommission releases only the MACs pvectl wrote: its MAC objects carry `pvectl: <name>`;
// one an operator set by hand (a DHCP reservation, which the guest was built with) stays.
// Before the marker, and before NetBox 4.2's MAC objects, the proof is the sync's journal
// entry that lists the MAC pvectl wrote on that interface.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const IFACES = "virtualization/interfaces";
const MACS = "dcim/mac-addresses";
const RESERVED = "02:00:5E:10:00:01";

function record(lab: NetboxLab, name: string): Record<string, unknown> {
  return lab.nb.admin.list(VMS, { name })[0] ?? {};
}

function eth0(lab: NetboxLab, name: string): Record<string, unknown> {
  return lab.nb.admin.list(IFACES, { virtual_machine_id: String(record(lab, name).id) })[0] ?? {};
}

function macsOn(lab: NetboxLab, name: string): string[] {
  return lab.nb.admin
    .list(MACS, { vminterface_id: String(eth0(lab, name).id) })
    .map((m) => String(m.mac_address))
    .sort();
}

function retire(lab: NetboxLab, name: string): void {
  lab.nb.admin.update(VMS, Number(record(lab, name).id), { status: "decommissioning" });
}

describe("pvectl netbox decommission releases only the MACs pvectl wrote", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());
  const run = () =>
    decommissionNetbox({ config: lab.config, netbox: lab.netbox, pveClient: () => lab.pve, apply: FAST_APPLY, allowDataLoss: true });

  test("NetBox >= 4.2: an operator's reserved MAC stays, the marked MAC object pvectl created goes", async () => {
    lab = await startNetboxLab();
    // web-01's MAC is a DHCP reservation an operator set before the build: the guest takes it.
    const reservation = lab.nb.admin.create(MACS, {
      mac_address: RESERVED,
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth0(lab, "web-01").id,
      description: "DHCP reservation",
    });
    lab.nb.admin.update(IFACES, Number(eth0(lab, "web-01").id), { primary_mac_address: reservation.id });
    // web-02 gets an operator's extra MAC object beside the one PVE generates.
    lab.nb.admin.create(MACS, {
      mac_address: "02:00:5E:10:00:02",
      assigned_object_type: "virtualization.vminterface",
      assigned_object_id: eth0(lab, "web-02").id,
    });
    assert.equal((await lab.sync()).ok, true);
    const [generated] = lab.nb.admin
      .list(MACS, { vminterface_id: String(eth0(lab, "web-02").id) })
      .filter((m) => m.mac_address !== "02:00:5E:10:00:02");
    assert.equal(generated?.description, "pvectl: web-02", "pvectl marks the MAC objects it creates");

    retire(lab, "web-01");
    retire(lab, "web-02");
    const report = await run();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    const released = new Map(report.records.map((r) => [r.name, r.released.filter((x) => x.startsWith("MAC"))]));
    assert.deepEqual(released.get("web-01"), []);
    assert.deepEqual(released.get("web-02"), [`MAC ${String(generated?.mac_address)}`]);
    assert.deepEqual(macsOn(lab, "web-01"), [RESERVED]);
    assert.equal(obj(eth0(lab, "web-01").primary_mac_address).id, reservation.id, "the reservation stays the interface's MAC");
    assert.deepEqual(macsOn(lab, "web-02"), ["02:00:5E:10:00:02"]);
  });

  test("an unmarked MAC object (older pvectl) goes only when the sync's journal says pvectl wrote it", async () => {
    lab = await startNetboxLab();
    assert.equal((await lab.sync()).ok, true);
    // What an older pvectl left: its MAC object without the marker.
    for (const name of ["web-01", "web-02"]) {
      const [mac] = lab.nb.admin.list(MACS, { vminterface_id: String(eth0(lab, name).id) });
      lab.nb.admin.update(MACS, Number(mac?.id), { description: "" });
    }
    // web-02's journal is gone (deleted by a person): nothing proves its MAC is pvectl's.
    for (const note of lab.nb.admin.list("extras/journal-entries", { assigned_object_id: String(record(lab, "web-02").id) }))
      lab.nb.admin.remove("extras/journal-entries", Number(note.id));
    const web2Macs = macsOn(lab, "web-02");
    retire(lab, "web-01");
    retire(lab, "web-02");
    const report = await run();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.deepEqual(macsOn(lab, "web-01"), []);
    assert.deepEqual(macsOn(lab, "web-02"), web2Macs);
  });

  test("NetBox < 4.2: the interface's mac_address is cleared only when pvectl wrote it", async () => {
    lab = await startNetboxLab(undefined, {}, { version: "4.1.11" });
    lab.nb.admin.update(IFACES, Number(eth0(lab, "web-01").id), { mac_address: RESERVED });
    assert.equal((await lab.sync()).ok, true);
    const web2Mac = eth0(lab, "web-02").mac_address;
    assert.equal(typeof web2Mac, "string");
    retire(lab, "web-01");
    retire(lab, "web-02");
    const report = await run();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.equal(eth0(lab, "web-01").mac_address, RESERVED, "the operator's MAC stays");
    assert.equal(eth0(lab, "web-02").mac_address, null, "the MAC PVE generated and pvectl wrote goes");
  });
});
