// A guest belongs to the one NetBox record it was built for. A record whose proxmox_vmid (or
// name) matches a guest pvectl built for another record used to rename and rewire it, drop its
// NIC, delete its disk with --allow-data-loss, and `decommission` destroyed it. Now every
// guest carries its record's tag (netbox-vm-<id>) from its create on, and any other record
// naming it is refused with both records named, by sync, day 2 and decommission alike.
// Guests built before the tag existed are bound to the record naming them by vmid, unless
// another record names the same vmid.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";
const DAY2 = `${DEMO_CONFIG}select:\n  status: [planned, staged, active]\n`;
const RECKLESS = { apply: { ...FAST_APPLY, allowRestart: true, allowDataLoss: true } };

function record(lab: NetboxLab, name: string): Record<string, unknown> {
  return lab.nb.admin.list(VMS, { name })[0]!;
}

function setVmid(lab: NetboxLab, name: string, vmid: number | null, extra: Record<string, unknown> = {}): number {
  const r = record(lab, name);
  lab.nb.admin.update(VMS, Number(r.id), { custom_fields: { ...obj(r.custom_fields), proxmox_vmid: vmid }, ...extra });
  return Number(r.id);
}

async function guestConfig(lab: NetboxLab, vmid: number): Promise<Record<string, unknown>> {
  return (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
}

describe("netbox: a guest belongs to the record it was built for", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("a record naming another record's guest by vmid is refused by sync (even with every flag) and by decommission", async () => {
    lab = await startNetboxLab(DAY2);
    assert.equal((await lab.sync()).ok, true);
    const web1 = record(lab, "web-01");
    const vmid = Number(obj(web1.custom_fields).proxmox_vmid);
    const before = await guestConfig(lab, vmid);
    assert.match(String(before.tags), new RegExp(`netbox-vm-${web1.id}`), "the guest carries its record's tag");
    // db-01 (another record: two NICs, two disks) is pointed at web-01's guest.
    const dbId = setVmid(lab, "db-01", vmid);

    const report = await lab.sync({ ...RECKLESS, selection: { names: ["db-01"] } });
    const outcome = report.records[0]!;
    assert.equal(outcome.result, "failed", JSON.stringify(outcome));
    const message = outcome.errors.join("; ");
    assert.match(
      message,
      new RegExp(
        `vmid ${vmid} \\(web-01 on pve1\\) was built for virtual machine web-01 \\(NetBox id ${web1.id}\\).*not for virtual machine db-01 \\(NetBox id ${dbId}\\)`,
      ),
    );
    assert.deepEqual(await guestConfig(lab, vmid), before, "web-01's guest is untouched: name, NIC, disk, tags");

    setVmid(lab, "db-01", vmid, { status: "decommissioning" });
    const decommission = await decommissionNetbox({
      config: lab.config,
      netbox: lab.netbox,
      pveClient: () => lab.pve,
      apply: FAST_APPLY,
      allowDataLoss: true,
      selection: { names: ["db-01"] },
    });
    assert.equal(decommission.records[0]?.result, "failed", JSON.stringify(decommission.records));
    assert.match(decommission.records[0]!.errors.join("; "), /was built for virtual machine web-01/);
    assert.deepEqual(await guestConfig(lab, vmid), before, "not destroyed");
    assert.equal(obj(lab.nb.admin.get(VMS, dbId)?.status).value, "decommissioning");
  });

  test("a new record with the name of a deleted record's guest does not take it over", async () => {
    lab = await startNetboxLab(DEMO_CONFIG);
    assert.equal((await lab.sync({ selection: { names: ["web-01"] } })).ok, true);
    const old = record(lab, "web-01");
    const vmid = Number(obj(old.custom_fields).proxmox_vmid);
    lab.nb.admin.remove(VMS, Number(old.id));
    const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
    const platform = lab.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
    lab.nb.admin.create(VMS, { name: "web-01", status: "planned", cluster, platform, vcpus: 4, memory: 1024, disk: 10000 });
    const before = await guestConfig(lab, vmid);
    const outcome = (await lab.sync({ ...RECKLESS, selection: { names: ["web-01"] } })).records[0]!;
    assert.equal(outcome.result, "failed", JSON.stringify(outcome));
    assert.match(outcome.errors.join("; "), new RegExp(`was built for NetBox id ${old.id} \\(a record that no longer exists\\)`));
    assert.match(outcome.errors.join("; "), new RegExp(`remove the tag netbox-vm-${old.id}`));
    assert.deepEqual(await guestConfig(lab, vmid), before);
  });

  test("a guest built before the record tag is bound to the record naming its vmid, unless another record names it too", async () => {
    lab = await startNetboxLab(DAY2);
    // As pvectl built guests before: its ownership tag and the NetBox tags, no record tag.
    await lab.pve.waitForTask(
      (await lab.pve.request("POST", "/nodes/pve1/qemu", {
        vmid: 300,
        name: "web-01",
        tags: "netbox;pvectl;web",
        memory: 2048,
        cores: 2,
      })) as string,
    );
    const webId = setVmid(lab, "web-01", 300, { status: "staged" });
    setVmid(lab, "web-02", 300, { status: "staged" });

    for (const name of ["web-01", "web-02"]) {
      const o = (await lab.sync({ ...RECKLESS, selection: { names: [name] } })).records[0]!;
      assert.equal(o.result, "failed", JSON.stringify(o));
      const other = name === "web-01" ? "web-02" : "web-01";
      assert.match(
        o.errors.join("; "),
        new RegExp(
          `carries no record tag .* virtual machine ${other} \\(NetBox id \\d+\\) names the same vmid in proxmox_vmid; pvectl will not guess`,
        ),
      );
    }
    assert.equal((await guestConfig(lab, 300)).tags, "netbox;pvectl;web", "untouched while ambiguous");

    setVmid(lab, "web-02", null, { status: "planned" });
    const bound = await lab.sync({ ...RECKLESS, selection: { names: ["web-01"] } });
    assert.equal(bound.records[0]?.result, "converged", JSON.stringify(bound.records));
    assert.match(String((await guestConfig(lab, 300)).tags), new RegExp(`netbox-vm-${webId}`), "bound: the plan wrote the record tag");
    // From now on another record naming it is refused as for any guest built with the tag.
    setVmid(lab, "web-02", 300);
    const refused = await lab.sync({ ...RECKLESS, selection: { names: ["web-02"] } });
    assert.match(refused.records[0]!.errors.join("; "), /was built for virtual machine web-01/);
  });
});
