// pvectl netbox sync end to end against both simulators: the happy path, partial failures
// (one record's PVE preflight, one record's NetBox write-back), a crash and rerun that
// converges without duplicates, bad records that get nothing but their reason, plan-only.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { startNetboxLab, type NetboxLab } from "../support/netbox-lab.js";
import { obj } from "../support/netbox-http.js";

const VMS = "virtualization/virtual-machines";

function vmByName(lab: NetboxLab, name: string): Record<string, unknown> {
  const found = lab.nb.admin.list(VMS, { name });
  assert.equal(found.length, 1);
  return found[0] as Record<string, unknown>;
}

const statusOf = (vm: Record<string, unknown>) => obj(vm.status).value;
const cfOf = (vm: Record<string, unknown>, key: string) => obj(vm.custom_fields)[key];

function journal(lab: NetboxLab, vmId: unknown): { kind: string; comments: string }[] {
  return lab.nb.admin
    .list("extras/journal-entries", { assigned_object_id: String(vmId) })
    .map((j) => ({ kind: String(obj(j.kind).value), comments: String(j.comments) }));
}

describe("pvectl netbox sync", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("happy path: planned records -> built VMs -> staged, with vmid, MACs and primary IPv4 written back", async () => {
    lab = await startNetboxLab();
    const report = await lab.sync();
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.deepEqual(
      report.records.map((r) => [r.name, r.result, r.status]),
      [
        ["db-01", "staged", "staged"],
        ["web-01", "staged", "staged"],
        ["web-02", "staged", "staged"],
      ],
    );
    const guests = await lab.pveGuests();
    for (const name of ["db-01", "web-01", "web-02"]) {
      const vm = vmByName(lab, name);
      assert.equal(statusOf(vm), "staged");
      const vmid = cfOf(vm, "proxmox_vmid");
      assert.deepEqual(guests.get(name), [vmid]);
      const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${String(vmid)}/config`)) as Record<string, string>;
      const ifaces = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(vm.id) });
      ifaces.forEach((iface, i) => {
        // NetBox's MAC is exactly the one PVE generated for the NIC built from this interface.
        assert.match(String(config[`net${i}`]), new RegExp(`^virtio=${String(iface.mac_address)},bridge=vmbr0,tag=20`));
        assert.equal(obj(iface.primary_mac_address).mac_address, iface.mac_address);
      });
      const ip = obj(vm.primary_ip4);
      assert.match(String(ip.address), /^10\.20\.0\.\d+\/24$/);
      assert.equal(journal(lab, vm.id)[0]?.kind, "success");
    }
    const db = (await lab.pve.request("GET", `/nodes/pve1/qemu/${String(cfOf(vmByName(lab, "db-01"), "proxmox_vmid"))}/config`)) as Record<
      string,
      string | number
    >;
    assert.equal(Number(db.cores), 4);
    assert.equal(Number(db.memory), 8192);
    assert.match(String(db.net1), /tag=20,trunks=30/);
    // The first disk is imported from an image and then grown to the size NetBox asks for.
    assert.match(String(db.scsi0), /size=32000M|size=31\.25G/);
    assert.match(String(db.scsi1), /size=100000M|size=97\.65625G/);

    // Rerun: nothing is planned any more, so nothing is selected and nothing is written.
    lab.nb.admin.clearRequests();
    const again = await lab.sync();
    assert.deepEqual(again.records, []);
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.method !== "GET"),
      [],
    );
  });

  test("partial failure: one record blocked by its own problem, the others staged", async () => {
    lab = await startNetboxLab();
    const web2 = vmByName(lab, "web-02");
    lab.nb.admin.update(VMS, Number(web2.id), { custom_fields: { proxmox_storage: "no-such-storage" } });
    // And NetBox refuses the first MAC object (the write-back of db-01, built first).
    lab.nb.admin.failNext({ method: "POST", path: "/api/dcim/mac-addresses/", status: 500, body: { error: "database is locked" } });
    const report = await lab.sync();
    assert.equal(report.ok, false);
    const byName = new Map(report.records.map((r) => [r.name, r]));
    assert.equal(byName.get("web-01")?.result, "staged");
    assert.equal(byName.get("web-02")?.result, "failed");
    assert.match(byName.get("web-02")?.errors.join(" ") ?? "", /no-such-storage/);
    assert.equal(byName.get("db-01")?.result, "failed");
    assert.match(
      byName.get("db-01")?.errors[0] ?? "",
      /^write-back to NetBox failed: NetBox POST \/api\/dcim\/mac-addresses\/ for interface eth0 of virtual machine db-01 \(NetBox id 3\) failed with a NetBox server error \(500\)/,
    );
    assert.equal(statusOf(vmByName(lab, "web-01")), "staged");
    for (const name of ["web-02", "db-01"]) {
      const vm = vmByName(lab, name);
      assert.equal(statusOf(vm), "planned", `${name} must stay planned`);
      const notes = journal(lab, vm.id);
      assert.equal(notes.length, 1);
      assert.equal(notes[0]?.kind, "danger");
      assert.match(notes[0]?.comments ?? "", /^pvectl netbox sync: /);
    }
    // web-02 was never built; db-01 was built (its own PVE steps succeeded) but not staged.
    const guests = await lab.pveGuests();
    assert.equal(guests.has("web-02"), false);
    assert.equal(guests.get("db-01")?.length, 1);

    // Fix web-02 and run again: everything converges, db-01 is not built twice.
    lab.nb.admin.update(VMS, Number(web2.id), { custom_fields: { proxmox_storage: null } });
    const rerun = await lab.sync();
    assert.deepEqual(
      rerun.records.map((r) => [r.name, r.result, r.guestResult]),
      [
        ["db-01", "staged", "unchanged"],
        ["web-02", "staged", "created"],
      ],
    );
    const after = await lab.pveGuests();
    for (const name of ["db-01", "web-01", "web-02"]) assert.equal(after.get(name)?.length, 1, `${name} exists once`);
  });

  test("crash and rerun: a sync killed after building (and after half its write-back) finishes without duplicates", async () => {
    lab = await startNetboxLab();
    // First run dies after PVE did its work, at a different point of each record's write-back:
    // db-01 before anything was written (its vmid PATCH), web-01 after vmid, MAC and IP object
    // (its primary_ip4 PATCH), web-02 after everything but the status (its status PATCH).
    const down = { method: "PATCH", status: 503, body: { detail: "Service unavailable" } };
    lab.nb.admin.failNext({ ...down, path: "/api/virtualization/virtual-machines/3/" });
    lab.nb.admin.failNext({ ...down, path: "/api/virtualization/virtual-machines/1/", skip: 1 });
    lab.nb.admin.failNext({ ...down, path: "/api/virtualization/virtual-machines/2/", skip: 2 });
    const first = await lab.sync();
    assert.equal(
      first.records.every((r) => r.result === "failed"),
      true,
      JSON.stringify(first.records),
    );
    const half = vmByName(lab, "web-01");
    assert.equal(statusOf(half), "planned");
    assert.equal(typeof cfOf(half, "proxmox_vmid"), "number");
    assert.equal(half.primary_ip4, null);
    const ipsAfterCrash = lab.nb.admin.list("ipam/ip-addresses").length;

    const second = await lab.sync();
    assert.deepEqual(
      second.records.map((r) => [r.name, r.result]),
      [
        ["db-01", "staged"],
        ["web-01", "staged"],
        ["web-02", "staged"],
      ],
    );
    // Nothing is created or changed a second time.
    assert.deepEqual(
      second.records.map((r) => r.guestResult),
      ["unchanged", "unchanged", "unchanged"],
    );
    const guests = await lab.pveGuests();
    assert.deepEqual(
      [...guests.values()].map((v) => v.length),
      [1, 1, 1],
    );
    // One MAC object and one IP per interface: what the first run wrote was reused.
    const macs = lab.nb.admin.list("dcim/mac-addresses").map((m) => m.assigned_object_id);
    assert.equal(macs.length, new Set(macs).size);
    assert.equal(macs.length, 4);
    const ips = lab.nb.admin.list("ipam/ip-addresses");
    assert.equal(ips.length, 4);
    assert.equal(new Set(ips.map((ip) => ip.assigned_object_id)).size, 4, "no interface holds two");
    assert.equal(ipsAfterCrash, 2);
    for (const name of ["db-01", "web-01", "web-02"]) {
      const vm = vmByName(lab, name);
      assert.deepEqual(guests.get(name), [cfOf(vm, "proxmox_vmid")]);
    }
  });

  test("bad records: each gets a clear error and only its reason is written; good records still build", async () => {
    lab = await startNetboxLab();
    const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
    const site = lab.nb.admin.idOf("dcim/sites", { slug: "lab" });
    const bsd = lab.nb.admin.create("dcim/platforms", { name: "FreeBSD", slug: "freebsd" });
    const debian = lab.nb.admin.idOf("dcim/platforms", { slug: "debian-13" });
    const bad = [
      lab.nb.admin.create(VMS, { name: "no-cluster", status: "planned", site, platform: debian, vcpus: 1, memory: 512, disk: 4096 }),
      lab.nb.admin.create(VMS, { name: "bsd-01", status: "planned", cluster, platform: bsd.id, vcpus: 1, memory: 512, disk: 4096 }),
      lab.nb.admin.create(VMS, { name: "tiny-01", status: "planned", cluster, platform: debian, vcpus: 0.5, memory: 4, disk: 0 }),
    ];
    lab.nb.admin.clearRequests();
    const report = await lab.sync();
    const byName = new Map(report.records.map((r) => [r.name, r]));
    assert.deepEqual(byName.get("no-cluster")?.errors, ["has no cluster; assign it to one of the configured clusters (pve-lab)"]);
    assert.deepEqual(byName.get("bsd-01")?.errors, [
      "platform `freebsd` is not configured under `platforms:` in netbox.yaml (configured: debian-13, ubuntu-24-04, windows-2022)",
    ]);
    assert.deepEqual(byName.get("tiny-01")?.errors, [
      "vcpus 0.5 is not a whole number of at least 1 (Proxmox VE allocates whole cores)",
      "memory 4 MiB is below the 16 MiB Proxmox VE needs",
      "disk has size 0 MiB; a disk needs a positive size",
    ]);
    for (const r of bad) {
      assert.equal(byName.get(String(r.name))?.result, "invalid");
      const vm = lab.nb.admin.get(VMS, Number(r.id)) ?? {};
      assert.equal(statusOf(vm), "planned");
      assert.equal(cfOf(vm, "proxmox_vmid"), null);
      // The only write about a bad record is the journal entry with its reason.
      const writes = lab.nb.admin.requests.filter((q) => q.method !== "GET" && q.path === `/api/${VMS}/${String(r.id)}/`);
      assert.deepEqual(writes, []);
      const notes = journal(lab, r.id);
      assert.equal(notes.length, 1);
      assert.match(notes[0]?.comments ?? "", /^pvectl netbox sync: /);
    }
    const guests = await lab.pveGuests();
    for (const r of bad) assert.equal(guests.has(String(r.name)), false);
    assert.equal(byName.get("web-01")?.result, "staged");
  });

  test("writeBack.onFailure: failed moves a failed record to `failed` so it is not retried blindly", async () => {
    lab = await startNetboxLab(`${(await import("./fixtures.js")).DEMO_CONFIG}  onFailure: failed\n`);
    const web1 = vmByName(lab, "web-01");
    lab.nb.admin.update(VMS, Number(web1.id), { vcpus: 2.5 });
    const report = await lab.sync();
    assert.equal(report.records.find((r) => r.name === "web-01")?.status, "failed");
    assert.equal(statusOf(vmByName(lab, "web-01")), "failed");
  });

  test("plan only: shows what would be built and writes nothing anywhere", async () => {
    lab = await startNetboxLab();
    lab.nb.admin.clearRequests();
    const plans: string[] = [];
    const report = await lab.sync({
      planOnly: true,
      onPlan: (_c, plan) => plans.push(...plan.guests.map((g) => g.steps.map((s) => s.summary).join())),
    });
    assert.deepEqual(
      report.records.map((r) => r.result),
      ["planned", "planned", "planned"],
    );
    assert.deepEqual(plans, [
      "create db-01 on pve1 (vmid allocated at apply)",
      "create web-01 on pve1 (vmid allocated at apply)",
      "create web-02 on pve1 (vmid allocated at apply)",
    ]);
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.method !== "GET"),
      [],
    );
    assert.equal((await lab.pveGuests()).size, 0);
  });

  test("NetBox before 4.2 (no MAC objects): the MAC is written to the interface's mac_address", async () => {
    lab = await startNetboxLab(undefined, {}, { version: "4.1.11" });
    const report = await lab.sync({ selection: { names: ["web-01"] } });
    assert.equal(report.records[0]?.result, "staged", JSON.stringify(report.records));
    const vm = vmByName(lab, "web-01");
    const iface = lab.nb.admin.list("virtualization/interfaces", { virtual_machine_id: String(vm.id) })[0] ?? {};
    const config = (await lab.pve.request("GET", `/nodes/pve1/qemu/${String(cfOf(vm, "proxmox_vmid"))}/config`)) as Record<string, string>;
    assert.equal(`virtio=${String(iface.mac_address)}`, String(config.net0).split(",")[0]);
  });
});
