// pvectl netbox sync with a platform whose records are clones of a template: the record's VM is
// cloned and converged (cores, memory, the template's disk grown to NetBox's size) in one run,
// its first disk stays on the template's storage (no move planned after a linked clone), and a
// rerun of the same record plans nothing.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { afterEach, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Plan } from "../../src/plan/types.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const TEMPLATE_VMID = 9000;
const PYTHON = "/usr/bin/python3";
const noPynetbox =
  spawnSync(PYTHON, ["-c", "import pynetbox"]).status !== 0
    ? "python3-pynetbox is not installed (apt-get install python3-pynetbox)"
    : false;

/** Creates the clone platform's record with pynetbox (asynchronously: the NetBox simulator lives in this process). */
async function pynetboxRecord(lab: NetboxLab, name: string): Promise<number> {
  const script = fileURLToPath(new URL("./sync-clone.py", import.meta.url));
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
  return (JSON.parse(stdout) as { id: number }).id;
}

/** A template made by hand the way PVE's docs make one: a disk, a NIC and a cloud-init drive, owned by pvectl. */
async function makeTemplate(lab: NetboxLab, storage: string): Promise<void> {
  await lab.pve.request("POST", "/nodes/pve1/qemu", {
    vmid: TEMPLATE_VMID,
    name: "debian-13-tpl",
    memory: 1024,
    scsi0: `${storage}:2`,
    net0: "virtio,bridge=vmbr0",
    ide2: `${storage}:cloudinit`,
    tags: "pvectl",
  });
  await lab.pve.request("POST", `/nodes/pve1/qemu/${TEMPLATE_VMID}/template`);
}

function addCloneRecord(lab: NetboxLab, name: string): number {
  const cluster = lab.nb.admin.idOf("virtualization/clusters", { name: "pve-lab" });
  const platform = lab.nb.admin.create("dcim/platforms", { name: "Debian clone", slug: "debian-clone" }).id as number;
  const vm = lab.nb.admin.create("virtualization/virtual-machines", {
    name,
    status: "planned",
    cluster,
    platform,
    vcpus: 2,
    memory: 2048,
    disk: 8192,
  }).id as number;
  lab.nb.admin.create("virtualization/interfaces", { virtual_machine: vm, name: "eth0" });
  return vm;
}

/** The default storages plus a ZFS pool the template sits on (it can link, and is not the cluster's storage). */
const SIM = {
  config: {
    content: ["local:iso/debian-13-netinst.iso", "local:import/noble.qcow2"],
    storages: [
      { id: "local", type: "dir" as const, content: ["iso", "vztmpl", "import", "snippets"] },
      { id: "local-lvm", type: "lvmthin" as const, content: ["images", "rootdir"] },
      { id: "local-zfs", type: "zfspool" as const, content: ["images", "rootdir"] },
    ],
  },
};

const config = (clone: string) => DEMO_CONFIG.replace("platforms:\n", `platforms:\n  debian-clone:\n    clone: ${clone}\n`);

describe("pvectl netbox sync: a platform built as clones of a template", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("linked clone: cloned, grown to NetBox's size on the template's storage, staged; a rerun plans nothing", async () => {
    // The cluster's storage (local-lvm) is not where the template lives: the clone must not be moved there.
    lab = await startNetboxLab(config("{ from: debian-13-tpl, full: false }"), SIM);
    await makeTemplate(lab, "local-zfs");
    const id = addCloneRecord(lab, "app-01");
    const plans: Plan[] = [];
    const report = await lab.sync({ selection: { names: ["app-01"] }, onPlan: (_c, plan) => plans.push(plan) });
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.equal(report.records[0]?.result, "staged");
    const actions = plans[0]?.guests.flatMap((g) => g.steps.map((s) => s.action)) ?? [];
    assert.equal(actions[0], "clone");
    assert.ok(!actions.includes("disk-move"), `no move right after the clone: ${actions.join(", ")}`);

    const vmid = report.records[0]?.vmid;
    const cfg = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), new RegExp(`^local-zfs:base-${TEMPLATE_VMID}-disk-0/vm-${vmid}-disk-0,.*size=8G`));
    assert.equal(Number(cfg.cores), 2);
    assert.equal(Number(cfg.memory), 2048);
    assert.match(String(cfg.ide2), /cloudinit/, "the template's cloud-init drive is kept");

    // The same record planned again (back to planned, its vmid now written back): nothing to do.
    lab.nb.admin.update("virtualization/virtual-machines", id, { status: "planned" });
    const again: Plan[] = [];
    const rerun = await lab.sync({ planOnly: true, selection: { names: ["app-01"] }, onPlan: (_c, plan) => again.push(plan) });
    assert.deepEqual(
      rerun.records.map((r) => r.result),
      ["planned"],
    );
    assert.deepEqual(
      again[0]?.guests.map((g) => [g.key, g.steps.map((s) => s.summary), g.errors]),
      [["app-01", [], []]],
    );
  });

  test("full clone onto a storage: the disk is copied there and planned nowhere else", async () => {
    lab = await startNetboxLab(config("{ from: 9000, full: true, storage: local-lvm }"), SIM);
    await makeTemplate(lab, "local-zfs");
    addCloneRecord(lab, "app-02");
    const report = await lab.sync({ selection: { names: ["app-02"] } });
    assert.equal(report.ok, true, JSON.stringify(report.records));
    const vmid = report.records[0]?.vmid;
    const cfg = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.match(String(cfg.scsi0), new RegExp(`^local-lvm:vm-${vmid}-disk-0,.*size=8G`));
  });

  test("a record made with pynetbox: cloned with cloud-init's ipconfig0 from its primary IPv4; a rerun plans nothing", {
    skip: noPynetbox,
  }, async () => {
    lab = await startNetboxLab(config("{ from: debian-13-tpl }\n    cloudInit: { gw: 10.20.0.1 }"), SIM);
    await makeTemplate(lab, "local-zfs");
    const id = await pynetboxRecord(lab, "app-03");
    const report = await lab.sync({ selection: { names: ["app-03"] } });
    assert.equal(report.ok, true, JSON.stringify(report.records));
    assert.equal(report.records[0]?.result, "staged");
    const vmid = report.records[0]?.vmid;
    const cfg = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
    assert.deepEqual(String(cfg.ipconfig0).split(",").sort(), ["gw=10.20.0.1", "ip=10.20.0.50/24"]);
    assert.match(String(cfg.ide2), /^local-zfs:.*cloudinit/, "the template's cloud-init drive, where the clone put it");
    assert.match(String(cfg.scsi0), /size=8G/);

    lab.nb.admin.update("virtualization/virtual-machines", id, { status: "planned" });
    const again: Plan[] = [];
    await lab.sync({ planOnly: true, selection: { names: ["app-03"] }, onPlan: (_c, plan) => again.push(plan) });
    assert.deepEqual(
      again[0]?.guests.map((g) => [g.key, g.steps.map((s) => s.summary), g.errors]),
      [["app-03", [], []]],
    );
  });
});
