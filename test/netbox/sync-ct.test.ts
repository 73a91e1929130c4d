// pvectl netbox sync with a platform that maps to containers, against both simulators: the
// record becomes an LXC container, and its vmid, MAC and primary IPv4 are written back as for
// a VM; python3-pynetbox (a client nobody here wrote) reads the written-back record.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { afterEach, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { decommissionNetbox } from "../../src/app/netbox/decommission.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const CONFIG = DEMO_CONFIG.replace(
  "platforms:\n",
  `platforms:\n  debian-ct:\n    container:\n      ostemplate: ${TEMPLATE}\n      features: { nesting: true }\n`,
);
const SIM = { config: { content: ["local:iso/debian-13-netinst.iso", "local:import/noble.qcow2", TEMPLATE] } };

const PYTHON = "/usr/bin/python3";
const noPynetbox =
  spawnSync(PYTHON, ["-c", "import pynetbox"]).status !== 0
    ? "python3-pynetbox is not installed (apt-get install python3-pynetbox)"
    : false;

/** A planned NetBox record of the container platform with one interface. */
function addContainerRecord(lab: NetboxLab, name: string): number {
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = lab.nb.admin.create("dcim/platforms", { name: "Debian CT", slug: "debian-ct" }).id as number;
  const vm = lab.nb.admin.create("virtualization/virtual-machines", {
    name,
    status: "planned",
    cluster,
    platform,
    vcpus: 1,
    memory: 512,
    disk: 4096,
  }).id as number;
  lab.nb.admin.create("virtualization/interfaces", { virtual_machine: vm, name: "eth0" });
  return vm;
}

async function pynetbox(lab: NetboxLab, name: string): Promise<Record<string, unknown>> {
  const script = fileURLToPath(new URL("./sync-ct.py", import.meta.url));
  // Asynchronously: the NetBox simulator lives in this process and must keep answering.
  const child = spawn(PYTHON, [script, lab.nb.url, lab.nb.token, name], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, `pynetbox failed:\n${stderr}`);
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("pvectl netbox sync: a platform mapped to containers", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("the record becomes a container; vmid, MAC and primary IPv4 are written back (read with pynetbox)", {
    skip: noPynetbox,
  }, async () => {
    lab = await startNetboxLab(CONFIG, SIM);
    const id = addContainerRecord(lab, "ct-01");
    const report = await lab.sync({ selection: { names: ["ct-01"] } });
    assert.equal(report.ok, true, JSON.stringify(report.records));
    const [outcome] = report.records;
    assert.equal(outcome?.result, "staged");
    assert.equal(outcome?.guestKind, "container");
    const vmid = outcome?.vmid;
    assert.ok(vmid !== undefined);

    const config = (await lab.pve.request("GET", `/nodes/pve1/lxc/${vmid}/config`)) as Record<string, string | number>;
    assert.equal(config.hostname, "ct-01");
    assert.equal(Number(config.memory), 512);
    assert.equal(config.features, "nesting=1");
    assert.match(String(config.rootfs), /^local-lvm:/);
    const hwaddr = /hwaddr=([0-9A-F:]{17})/.exec(String(config.net0))?.[1];
    assert.ok(hwaddr, String(config.net0));
    assert.match(String(config.net0), /name=eth0/);

    const read = await pynetbox(lab, "ct-01");
    assert.equal(read.status, "staged");
    assert.equal(read.vmid, vmid);
    assert.equal(read.mac, hwaddr, "NetBox holds the MAC PVE generated for the container's NIC");
    assert.match(String(read.primary_ip4), /^10\.20\.0\.\d+\/24$/);
    assert.equal(read.ip_on, read.iface_id);
    const journal = lab.nb.admin.list("extras/journal-entries", { assigned_object_id: String(id) }).map((j) => String(j.comments));
    assert.match(journal[0] ?? "", new RegExp(`^pvectl built container ${vmid} on pve1 \\(created\\)`));
    assert.equal(obj(lab.nb.admin.list("virtualization/virtual-machines", { name: "ct-01" })[0]?.status).value, "staged");
  });

  test("decommission destroys the record's container (found as a container by its vmid) and releases what sync wrote", async () => {
    lab = await startNetboxLab(CONFIG, SIM);
    const id = addContainerRecord(lab, "ct-02");
    const synced = await lab.sync({ selection: { names: ["ct-02"] } });
    const vmid = synced.records[0]?.vmid;
    assert.ok(vmid !== undefined, JSON.stringify(synced.records));
    lab.nb.admin.update("virtualization/virtual-machines", id, { status: "decommissioning" });
    const report = await decommissionNetbox({
      config: lab.config,
      netbox: lab.netbox,
      pveClient: () => lab.pve,
      apply: FAST_APPLY,
      allowDataLoss: true,
    });
    assert.deepEqual(
      report.records.map((r) => [r.name, r.result, r.errors]),
      [["ct-02", "offline", []]],
    );
    const guests = (await lab.pve.request("GET", "/cluster/resources", { type: "vm" })) as { vmid: number }[];
    assert.ok(!guests.some((g) => g.vmid === vmid), "the container is gone");
    assert.equal(obj(lab.nb.admin.list("virtualization/virtual-machines", { name: "ct-02" })[0]).primary_ip4, null);
  });
});
