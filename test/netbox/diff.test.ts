// pvectl netbox diff: after a sync both sides agree; a change on either side shows up as the
// fact they disagree on, with both values; a guest gone, a retired record still running and a
// guest no record names are listed; and the diff writes nothing to either side.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { concernsNetbox, diffNetbox, type NetboxDiffReport, type RecordDrift } from "../../src/app/netbox/diff.js";
import { startNetboxLab, type NetboxLab } from "../support/netbox-lab.js";
import { obj } from "../support/netbox-http.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_CONFIG } from "./fixtures.js";
import { pvectl } from "../support/cli.js";
import { renderNetboxDiff } from "../../src/cli/commands/netbox-diff.js";
import { paletteFor } from "../../src/cli/render/plan.js";

const VMS = "virtualization/virtual-machines";

const diff = (lab: NetboxLab): Promise<NetboxDiffReport> =>
  diffNetbox({ config: lab.config, netbox: lab.netbox, pveClient: () => lab.pve });

function record(report: NetboxDiffReport, name: string): RecordDrift {
  const found = report.records.find((r) => r.name === name);
  assert.ok(found, `no record ${name} in ${JSON.stringify(report.records.map((r) => r.name))}`);
  return found;
}

function vmidOf(lab: NetboxLab, name: string): number {
  const vm = lab.nb.admin.list(VMS, { name })[0]!;
  return Number(obj(vm.custom_fields).proxmox_vmid);
}

describe("pvectl netbox diff", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("before a sync the planned records are not built; after it everything agrees", async () => {
    lab = await startNetboxLab();
    const before = await diff(lab);
    assert.deepEqual(
      before.records.map((r) => [r.name, r.state]),
      before.records.map((r) => [r.name, "not-built"]),
    );
    assert.ok((await lab.sync()).ok);
    const after = await diff(lab);
    assert.deepEqual(
      after.records.map((r) => [r.name, r.state, r.differences]),
      after.records.map((r) => [r.name, "in-sync", []]),
    );
    assert.deepEqual(after.unrecorded, []);
    assert.equal(after.inSync, true);
  });

  test("a change on either side is reported with both values; missing, retired and unrecorded guests are listed; nothing is written", async () => {
    lab = await startNetboxLab();
    assert.ok((await lab.sync()).ok);
    // NetBox side: web-01 asks for more vCPUs. PVE side: someone changed web-02's memory by hand.
    const web01 = lab.nb.admin.list(VMS, { name: "web-01" })[0]!;
    lab.nb.admin.update(VMS, Number(web01.id), { vcpus: 6 });
    const web02Path = `/nodes/pve1/qemu/${vmidOf(lab, "web-02")}/config`;
    const net0 = String(((await lab.pve.request("GET", web02Path)) as Record<string, unknown>).net0);
    const mac = /=([0-9A-F:]{17})/.exec(net0)![1]!;
    await lab.pve.request("PUT", web02Path, { memory: 3072, net0: net0.replace(mac, "BC:24:11:00:00:01") });
    // db-01's guest is destroyed behind NetBox's back; an unrelated guest appears.
    const db = vmidOf(lab, "db-01");
    await lab.pve.request("POST", `/nodes/pve1/qemu/${db}/status/stop`, {});
    await lab.pve.request("DELETE", `/nodes/pve1/qemu/${db}`, {});
    await lab.pve.request("POST", "/nodes/pve1/qemu", { vmid: 4242, name: "hand-made", memory: 512 });
    await new Promise((r) => setTimeout(r, 100));

    lab.nb.admin.clearRequests();
    const pveWrites = () => lab.sim.admin.accessLog({ entries: true }).entries.filter((e) => e.method !== "GET").length;
    const writesBefore = pveWrites();
    const report = await diff(lab);

    assert.deepEqual(record(report, "web-01").differences, [{ field: "cores", netbox: "6", pve: "2" }]);
    assert.equal(record(report, "web-01").state, "drift");
    const web02 = record(report, "web-02");
    assert.equal(web02.state, "drift");
    assert.deepEqual(web02.differences, [
      { field: "memory", netbox: "2048", pve: "3072" },
      { field: "net0.macaddr", netbox: mac, pve: "BC:24:11:00:00:01" },
    ]);
    assert.equal(record(report, "db-01").state, "guest-missing");
    assert.deepEqual(
      report.unrecorded.map((g) => [g.vmid, g.name, g.ownedByPvectl]),
      [[4242, "hand-made", false]],
    );
    assert.equal(report.inSync, false);

    // Only reads went out, to either side.
    assert.deepEqual(
      lab.nb.admin.requests.filter((r) => r.method !== "GET"),
      [],
    );
    assert.equal(pveWrites(), writesBefore);
  });

  test("a retired record whose guest still exists is reported; the CLI exits 2 on drift", async () => {
    lab = await startNetboxLab();
    assert.ok((await lab.sync()).ok);
    const web02 = lab.nb.admin.list(VMS, { name: "web-02" })[0]!;
    lab.nb.admin.update(VMS, Number(web02.id), { status: "offline" });
    const report = await diff(lab);
    assert.equal(record(report, "web-02").state, "retired");
    // An active record says its guest runs: a stopped one is a difference.
    const db = lab.nb.admin.list(VMS, { name: "db-01" })[0]!;
    lab.nb.admin.update(VMS, Number(db.id), { status: "active" });
    assert.deepEqual(record(await diff(lab), "db-01").differences, [{ field: "status", netbox: "active", pve: "stopped" }]);

    const dir = mkdtempSync(join(tmpdir(), "pvectl-netbox-diff-"));
    const file = join(dir, "netbox.yaml");
    writeFileSync(file, DEMO_CONFIG);
    const env = {
      PROXMOX_HOST: lab.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: lab.sim.rootPassword,
      NETBOX_URL: lab.nb.url,
      NETBOX_TOKEN: lab.nb.token,
    };
    const cli = await pvectl(["netbox", "diff", "-c", file, "--json"], env).finally(() => rmSync(dir, { recursive: true, force: true }));
    assert.equal(cli.code, 2, cli.stderr);
    assert.equal((JSON.parse(cli.stdout) as NetboxDiffReport).records.find((r) => r.name === "web-02")?.state, "retired");
  });

  test("right after a sync of cloud-init records (addresses, gateways from NetBox) nothing drifts", async () => {
    lab = await startNetboxLab(
      DEMO_CONFIG.replace(
        "    image: local:import/noble.qcow2\n",
        "    image: local:import/noble.qcow2\n    cloudInit:\n      nameservers: [10.20.0.53]\n",
      ),
    );
    // The prefix's gateway: the router's address, which sync puts into ipconfig0 as gw=.
    lab.nb.admin.create("ipam/ip-addresses", { address: "10.20.0.1/24", description: "router" });
    assert.ok((await lab.sync()).ok);
    const db = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmidOf(lab, "db-01")}/config`)) as Record<string, unknown>;
    assert.match(String(db.ipconfig0), /^gw=10\.20\.0\.1,ip=10\.20\.0\.\d+\/24$/);
    const report = await diff(lab);
    assert.deepEqual(
      report.records.map((r) => [r.name, r.state, r.differences]),
      report.records.map((r) => [r.name, "in-sync", []]),
    );
    assert.equal(report.inSync, true);
  });

  test("a guest pvectl built from a spec file is not labelled as a NetBox record's", async () => {
    lab = await startNetboxLab();
    assert.ok((await lab.sync()).ok);
    // What `pvectl apply` leaves for a spec's VM: pvectl's ownership tag, no NetBox record.
    await lab.pve.request("POST", "/nodes/pve1/qemu", { vmid: 4343, name: "from-spec", memory: 512, tags: "pvectl" });
    const report = await diff(lab);
    assert.deepEqual(
      report.unrecorded.map((g) => [g.vmid, g.name, g.ownedByPvectl, g.goneRecords]),
      [[4343, "from-spec", true, []]],
    );
    assert.deepEqual(report.unrecorded.filter(concernsNetbox), [], "a spec file's guest sharing the cluster is not drift");
    const text = renderNetboxDiff(report, paletteFor({ isTTY: false } as NodeJS.WriteStream));
    const line = text.split("\n").find((l) => l.includes("from-spec")) ?? "";
    assert.match(line, /^no record {4} vm 4343 from-spec on pve1: built by pvectl, not for a NetBox record .*not drift$/);
  });

  test("a guest built for a record that was deleted is named with that record, and is drift", async () => {
    lab = await startNetboxLab();
    assert.ok((await lab.sync()).ok);
    await lab.pve.request("POST", "/nodes/pve1/qemu", { vmid: 4344, name: "orphan", memory: 512, tags: "netbox-vm-977;pvectl" });
    const report = await diff(lab);
    assert.deepEqual(
      report.unrecorded.map((g) => [g.vmid, g.goneRecords]),
      [[4344, [977]]],
    );
    assert.deepEqual(
      report.unrecorded.filter(concernsNetbox).map((g) => g.vmid),
      [4344],
    );
    assert.equal(report.inSync, false);
    const line =
      renderNetboxDiff(report, paletteFor({ isTTY: false } as NodeJS.WriteStream))
        .split("\n")
        .find((l) => l.includes("orphan")) ?? "";
    assert.match(line, /built by pvectl for NetBox record 977, which no longer exists$/);
  });
});
