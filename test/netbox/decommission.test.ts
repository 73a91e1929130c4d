// pvectl netbox decommission end to end: records in `decommissioning` -> guest stopped and
// destroyed (only with allowDataLoss) -> what pvectl wrote released -> `offline` or deleted;
// a crash between destroy and release converges on the rerun.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { parseNetboxConfig } from "../../src/sources/netbox/config.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

async function builtLab(): Promise<NetboxLab> {
  const lab = await startNetboxLab();
  const report = await lab.sync();
  assert.equal(report.ok, true);
  return lab;
}

function vm(lab: NetboxLab, name: string): Record<string, unknown> {
  return lab.nb.admin.list(VMS, { name })[0] ?? {};
}

describe("pvectl netbox decommission", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  const run = (extra: Partial<Parameters<typeof decommissionNetbox>[0]> = {}) =>
    decommissionNetbox({ config: lab.config, netbox: lab.netbox, pveClient: () => lab.pve, apply: FAST_APPLY, ...extra });

  test("held back without allowDataLoss (as sync holds back), then stop + destroy + release + offline", async () => {
    lab = await builtLab();
    const web1 = vm(lab, "web-01");
    const vmid = Number(obj(web1.custom_fields).proxmox_vmid);
    await lab.pve.request("POST", `/nodes/pve1/qemu/${vmid}/status/start`);
    lab.nb.admin.update(VMS, Number(web1.id), { status: "decommissioning" });

    const held = await run();
    // Held back is what sync calls it: not a failure, the record waits for the flag.
    assert.equal(held.ok, true, JSON.stringify(held.records));
    assert.equal(held.records[0]?.result, "held");
    assert.match(held.records[0]?.errors.join(" ") ?? "", /held back: .*data-loss-risk: needs --allow-data-loss/);
    const notes = lab.nb.admin
      .list("extras/journal-entries", { assigned_object_id: String(web1.id) })
      .filter((n) => obj(n.kind).value === "warning")
      .map((n) => String(n.comments));
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.match(notes[0] ?? "", /^pvectl netbox decommission: not decommissioned yet, held back: .*needs --allow-data-loss/);
    assert.equal(obj(vm(lab, "web-01").status).value, "decommissioning");
    assert.deepEqual((await lab.pveGuests()).get("web-01"), [vmid]);
    assert.notEqual(vm(lab, "web-01").primary_ip4, null, "nothing released while the guest exists");

    const done = await run({ allowDataLoss: true });
    assert.equal(done.ok, true, JSON.stringify(done.records));
    const outcome = done.records[0];
    assert.equal(outcome?.result, "offline");
    assert.equal(outcome?.guest, "destroyed");
    assert.deepEqual(
      outcome?.released.map((r) => r.split(" ")[0]),
      ["IP", "MAC", "proxmox_vmid"],
    );
    assert.equal((await lab.pveGuests()).has("web-01"), false);
    const after = vm(lab, "web-01");
    assert.equal(obj(after.status).value, "offline");
    assert.equal(after.primary_ip4, null);
    assert.equal(obj(after.custom_fields).proxmox_vmid, null);
    const iface = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(after.id) })[0] ?? {};
    assert.equal(iface.mac_address, null);
    assert.equal(iface.name, "eth0", "interfaces are intent and stay unless deleteInterfaces is set");
    // The other guests were not touched.
    assert.equal((await lab.pveGuests()).size, 2);
    // Nothing left to do on a rerun.
    assert.deepEqual((await run({ allowDataLoss: true })).records, []);
  });

  test("a crash between destroy and release converges on the rerun; final: delete removes the record", async () => {
    lab = await builtLab();
    lab.config = parseNetboxConfig(`${DEMO_CONFIG}decommission:\n  final: delete\n  deleteInterfaces: true\n`, "netbox.yaml");
    const db = vm(lab, "db-01");
    lab.nb.admin.update(VMS, Number(db.id), { status: "decommissioning" });
    lab.nb.admin.failNext({ method: "DELETE", path: "/api/ipam/ip-addresses/", status: 503, body: { detail: "Service unavailable" } });
    const first = await run({ allowDataLoss: true });
    assert.equal(first.records[0]?.result, "failed");
    assert.equal(first.records[0]?.guest, "destroyed");
    assert.match(
      first.records[0]?.errors[0] ?? "",
      /^releasing in NetBox failed: NetBox DELETE \/api\/ipam\/ip-addresses\/\d+\/ for IP 10\.20\.0\.\d+\/24 of virtual machine db-01/,
    );
    assert.equal((await lab.pveGuests()).has("db-01"), false);
    assert.equal(obj(vm(lab, "db-01").status).value, "decommissioning");

    const second = await run({ allowDataLoss: true });
    assert.equal(second.records[0]?.result, "deleted");
    assert.equal(second.records[0]?.guest, "already absent");
    assert.deepEqual(lab.nb.admin.list(VMS, { name: "db-01" }), []);
    assert.equal(lab.nb.admin.list("virtualization/interfaces", { virtual_machine: "web-01" }).length, 1);
    assert.equal(lab.nb.admin.list("ipam/ip-addresses").length, 2);
  });

  test("plan only names the guest it would destroy and changes nothing", async () => {
    lab = await builtLab();
    const web2 = vm(lab, "web-02");
    lab.nb.admin.update(VMS, Number(web2.id), { status: "decommissioning" });
    lab.nb.admin.clearRequests();
    const report = await run({ planOnly: true, allowDataLoss: true });
    assert.deepEqual(
      report.records.map((r) => [r.name, r.result, r.guest]),
      [["web-02", "planned", `would destroy vm ${String(obj(web2.custom_fields).proxmox_vmid)}`]],
    );
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.method !== "GET"),
      [],
    );
    assert.equal((await lab.pveGuests()).has("web-02"), true);
  });

  test("plan only with a token that may not destroy the guest says the record would fail, as the real run does", async () => {
    lab = await builtLab();
    const web2 = vm(lab, "web-02");
    lab.nb.admin.update(VMS, Number(web2.id), { status: "decommissioning" });
    await lab.pve.request("POST", "/access/users", { userid: "audit@pve" });
    const made = (await lab.pve.request("POST", "/access/users/audit@pve/token/ro", { privsep: 0 })) as { value: string };
    await lab.pve.request("PUT", "/access/acl", { path: "/", roles: "PVEAuditor", users: "audit@pve" });
    const url = new URL(lab.sim.url);
    const auditor = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      tokenId: "audit@pve!ro",
      tokenSecret: made.value,
    });
    try {
      for (const planOnly of [true, false]) {
        const report = await run({ planOnly, allowDataLoss: true, pveClient: () => auditor });
        assert.deepEqual(
          report.records.map((r) => [r.name, r.result]),
          [["web-02", "failed"]],
          `planOnly ${planOnly}`,
        );
        assert.match(report.records[0]!.errors.join(), /VM\.Allocate/, `planOnly ${planOnly}`);
      }
      assert.equal((await lab.pveGuests()).has("web-02"), true);
    } finally {
      await auditor.close();
    }
  });
});
