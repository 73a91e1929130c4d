// netbox sync has apply's guard rails: a record whose guest needs a reboot converges only with
// --allow-restart (or waits, written, with --defer-restart), and a record moves to staged only
// when every step of its guest ran; held-back steps leave it planned with a journal entry.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import { pvectl } from "../support/cli.js";
import { DEMO_CONFIG } from "./fixtures.js";
import { obj } from "../support/netbox-http.js";
import { FAST_APPLY, type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

const VMS = "virtualization/virtual-machines";

function record(lab: NetboxLab, name: string): Record<string, unknown> {
  const found = lab.nb.admin.list(VMS, { name });
  assert.equal(found.length, 1);
  return found[0] as Record<string, unknown>;
}

function warnings(lab: NetboxLab, vmId: unknown): string[] {
  return lab.nb.admin
    .list("extras/journal-entries", { assigned_object_id: String(vmId) })
    .filter((j) => obj(j.kind).value === "warning")
    .map((j) => String(j.comments));
}

/** web-01 built and running, then asked in NetBox for more memory (a change that waits for a reboot). */
async function runningWebWithMoreMemory(): Promise<{ lab: NetboxLab; vmid: number; id: number }> {
  const lab = await startNetboxLab();
  const first = await lab.sync({ selection: { names: ["web-01"] } });
  assert.equal(first.records[0]?.result, "staged", JSON.stringify(first.records));
  const vm = record(lab, "web-01");
  const vmid = Number(obj(vm.custom_fields).proxmox_vmid);
  await lab.pve.request("POST", `/nodes/pve1/qemu/${vmid}/status/start`);
  for (let i = 0; i < 50; i++) {
    const status = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/status/current`)) as { status: string };
    if (status.status === "running") break;
    await new Promise((r) => setTimeout(r, 20));
  }
  lab.nb.admin.update(VMS, Number(vm.id), { status: "planned", memory: 4096 });
  return { lab, vmid, id: Number(vm.id) };
}

async function memoryOf(lab: NetboxLab, vmid: number): Promise<{ current: string; pending?: string }> {
  const entries = (await lab.pve.request("GET", `/nodes/pve1/qemu/${vmid}/pending`)) as Array<{
    key: string;
    value?: unknown;
    pending?: unknown;
  }>;
  const memory = entries.find((e) => e.key === "memory");
  return { current: String(memory?.value), ...(memory?.pending !== undefined ? { pending: String(memory.pending) } : {}) };
}

describe("netbox sync guard rails", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("without a guard-rail flag the record stays planned, nothing is written, a journal entry says what waits", async () => {
    const setup = await runningWebWithMoreMemory();
    lab = setup.lab;
    const report = await lab.sync({ selection: { names: ["web-01"] } });
    const outcome = report.records[0]!;
    assert.equal(outcome.result, "held", JSON.stringify(outcome));
    assert.equal(outcome.status, "planned");
    assert.equal(report.ok, true, "held back is not a failure");
    assert.equal(obj(record(lab, "web-01").status).value, "planned");
    assert.deepEqual(await memoryOf(lab, setup.vmid), { current: "2048" });
    const notes = warnings(lab, setup.id);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /^pvectl netbox sync: not staged yet, held back: change memory .*needs --allow-restart/);
  });

  test("with deferRestart the change is written as pending, the guest is not rebooted, the record stays planned", async () => {
    const setup = await runningWebWithMoreMemory();
    lab = setup.lab;
    const report = await lab.sync({ selection: { names: ["web-01"] }, apply: { ...FAST_APPLY, deferRestart: true } });
    const outcome = report.records[0]!;
    assert.equal(outcome.result, "held");
    assert.deepEqual(await memoryOf(lab, setup.vmid), { current: "2048", pending: "4096" });
    assert.equal(obj(record(lab, "web-01").status).value, "planned");
    assert.match(warnings(lab, setup.id)[0]!, /waiting for a reboot to apply memory/);
  });

  test("with allowRestart the guest is rebooted into the change and the record is staged", async () => {
    const setup = await runningWebWithMoreMemory();
    lab = setup.lab;
    const report = await lab.sync({ selection: { names: ["web-01"] }, apply: { ...FAST_APPLY, allowRestart: true } });
    assert.equal(report.records[0]!.result, "staged", JSON.stringify(report.records[0]));
    assert.deepEqual(await memoryOf(lab, setup.vmid), { current: "4096" });
    assert.equal(obj(record(lab, "web-01").status).value, "staged");
    assert.deepEqual(warnings(lab, setup.id), []);
  });
});

describe("pvectl netbox sync guard-rail flags", () => {
  let lab: NetboxLab;
  const dir = mkdtempSync(join(tmpdir(), "pvectl-sync-guards-"));
  afterEach(async () => {
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("held back: exit 3 and a 'held' line; --allow-restart converges it: staged, exit 0", async () => {
    const setup = await runningWebWithMoreMemory();
    lab = setup.lab;
    const config = join(dir, "netbox.yaml");
    writeFileSync(config, DEMO_CONFIG);
    const env = {
      PROXMOX_HOST: lab.sim.url,
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: lab.sim.rootPassword,
      NETBOX_URL: lab.nb.url,
      NETBOX_TOKEN: lab.nb.token,
    };
    const held = await pvectl(["netbox", "sync", "-c", config, "--name", "web-01"], env);
    assert.equal(held.code, 3, held.stderr);
    assert.match(held.stdout, /^held {4}web-01 \(NetBox id \d+\): vm \d+ on pve1: held back: change memory .*\(status stays planned\)$/m);
    assert.match(held.stdout, /0 staged, 0 planned only, 1 held back, 0 failed, 0 invalid/);

    const both = await pvectl(["netbox", "sync", "-c", config, "--allow-restart", "--defer-restart"], env);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /contradict each other/);

    const staged = await pvectl(["netbox", "sync", "-c", config, "--name", "web-01", "--allow-restart"], env);
    assert.equal(staged.code, 0, staged.stderr);
    assert.match(staged.stdout, /^staged {2}web-01 /m);
    assert.equal(obj(record(lab, "web-01").status).value, "staged");
  });
});
