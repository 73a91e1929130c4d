// Writes whose answer is lost (a slow request past the client's timeout, an answer dropped or
// held back after PVE handled the request) are resolved by reading back, never by a blind
// second send: no second guest, no second volume, no `unusedN`, and a truthful report.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/engine/apply.js";
import { buildPlan } from "../../src/engine/plan.js";
import type { RequestFaultSpec } from "../../src/sim/index.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

/** Well below the injected delays (undici checks its timeouts only about once a second), so every faulted request times out on the client. */
const TIMEOUT_MS = 250;
const SLOW_MS = 1500;

const vm = (vmid: number, o: { memory?: number; extra?: string; size?: string; storage?: string; noVmid?: boolean } = {}) => `
  - ${o.noVmid ? "" : `vmid: ${vmid}\n    `}name: lost${vmid}
    node: pve1
    memory: ${o.memory ?? 512}
    disks:
      scsi0: { storage: ${o.storage ?? "local-lvm"}, size: ${o.size ?? "1G"} }${o.extra ?? ""}
    nics:
      net0: { bridge: vmbr0 }`;

const SCSI1 = "\n      scsi1: { storage: local-lvm, size: 3G }";

/** The three ways an answer gets lost. */
const LOSSES: Array<[string, Omit<RequestFaultSpec, "method" | "path">]> = [
  ["a slow request (handled after the client gave up)", { latencyMs: SLOW_MS }],
  ["an answer dropped after the request was handled", { dropResponse: true }],
  ["an answer held back past the client's timeout", { responseDelayMs: SLOW_MS }],
];

describe("lost answers of non-idempotent writes", () => {
  let lab: Lab;
  let impatient: PveClient;
  before(async () => {
    lab = await startLab();
    const url = new URL(lab.sim.url);
    impatient = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: lab.sim.rootPassword,
      timeoutMs: TIMEOUT_MS,
    });
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => {
    await impatient.close();
    await lab.close();
  });

  async function apply(yaml: string, options: { allowDataLoss?: boolean } = {}) {
    const { plan } = await buildPlan(lab.client, desired(`vms:${yaml}`));
    return applyPlan(impatient, plan, { ...fastApply, ...options });
  }

  /** Waits until a late request has landed in the simulator, so the assertions see the end state. */
  async function settle(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 200));
  }

  async function volumes(storage = "local-lvm"): Promise<string[]> {
    const content = (await lab.client.request("GET", `/nodes/pve1/storage/${storage}/content`)) as Array<{ volid: string }>;
    return content.map((c) => c.volid).sort();
  }

  async function config(vmid: number): Promise<Record<string, unknown>> {
    return (await lab.client.request("GET", `/nodes/pve1/qemu/${vmid}/config`)) as Record<string, unknown>;
  }

  async function replanSteps(yaml: string): Promise<string[]> {
    const { plan } = await buildPlan(lab.client, desired(`vms:${yaml}`));
    return plan.guests.flatMap((g) => g.steps.map((s) => s.summary));
  }

  it("refuses lost-answer faults it cannot apply", () => {
    assert.throws(
      () => lab.sim.admin.injectFault({ responseDelayMs: -1 }),
      /responseDelayMs must be a number of milliseconds from 0 to 3600000/,
    );
    assert.throws(() => lab.sim.admin.injectFault({ dropResponse: "yes" as unknown as boolean }), /dropResponse must be true or false/);
  });

  for (const [what, fault] of LOSSES) {
    it(`adds a disk exactly once after ${what}`, async () => {
      await apply(vm(300));
      // The disk add is the second write of the guest (after the memory change), as in the issue.
      const spec = vm(300, { memory: 1024, extra: SCSI1 });
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/300/config$", ...fault, times: 1 });
      const report = await apply(spec);
      await settle();
      const guest = report.guests[0]!;
      assert.equal(report.ok, true, guest.error);
      assert.equal(guest.result, "changed");
      assert.deepEqual(await volumes(), ["local-lvm:vm-300-disk-0", "local-lvm:vm-300-disk-1"], "one new volume, not two");
      const live = await config(300);
      assert.deepEqual(
        Object.keys(live).filter((k) => k.startsWith("unused")),
        [],
        "no leaked unusedN",
      );
      assert.equal(guest.volumes.scsi1, String(live.scsi1).split(",")[0], "the report names the volume the guest has");
      assert.deepEqual(await replanSteps(spec), []);
    });
  }

  for (const [what, fault] of LOSSES) {
    it(`creates a guest without a vmid exactly once after ${what}`, async () => {
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", ...fault, times: 1 });
      const spec = vm(0, { noVmid: true });
      const report = await apply(spec);
      await settle();
      const guest = report.guests[0]!;
      assert.equal(report.ok, true, guest.error);
      assert.equal(guest.result, "created");
      const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name?: string }>;
      assert.deepEqual(
        guests.map((g) => [g.vmid, g.name]),
        [[guest.vmid, "lost0"]],
        "one guest, and the report names it",
      );
      assert.deepEqual(await volumes(), [`local-lvm:vm-${guest.vmid}-disk-0`]);
      assert.deepEqual(await replanSteps(spec), []);
    });
  }

  for (const [what, fault] of LOSSES) {
    it(`grows a disk to the size asked after ${what}`, async () => {
      await apply(vm(301));
      const spec = vm(301, { size: "2G" });
      lab.sim.admin.injectFault({ method: "PUT", path: "^/nodes/pve1/qemu/301/resize$", ...fault, times: 1 });
      const report = await apply(spec);
      await settle();
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.equal(report.guests[0]!.result, "changed");
      assert.match(String((await config(301)).scsi0), /size=2G/);
      assert.deepEqual(await replanSteps(spec), []);
    });
  }

  for (const [what, fault] of LOSSES) {
    it(`moves a disk once, leaving no copy behind, after ${what}`, async () => {
      await apply(vm(302));
      const spec = vm(302, { storage: "shared" });
      lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu/302/move_disk$", ...fault, times: 1 });
      // With --allow-data-loss the source, kept as unused0 by the move, is destroyed by the next step.
      const report = await apply(spec, { allowDataLoss: true });
      await settle();
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.equal(report.guests[0]!.result, "changed");
      assert.deepEqual(await volumes(), [], "the source volume is gone");
      assert.deepEqual(await volumes("shared"), ["shared:302/vm-302-disk-0.raw"]);
      const keys = Object.keys(await config(302));
      assert.deepEqual(
        keys.filter((k) => k.startsWith("unused")),
        [],
      );
      assert.deepEqual(await replanSteps(spec), []);
    });
  }
});

describe("a lost create answer while the create task still runs", () => {
  let lab: Lab;
  let impatient: PveClient;
  before(async () => {
    // Creates take about 3 s: longer than the runner's read-back budget under fastApply.
    lab = await startLab({ timing: "realistic", timeScale: 1, authFailureDelayMs: 0 });
    const url = new URL(lab.sim.url);
    impatient = new PveClient({
      host: url.hostname,
      port: Number(url.port),
      protocol: "http",
      user: "root@pam",
      password: lab.sim.rootPassword,
    });
  });
  after(async () => {
    await impatient.close();
    await lab.close();
  });

  it("waits for its own create task instead of creating the guest again under another vmid", async () => {
    lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/qemu$", dropResponse: true, times: 1 });
    const spec = vm(0, { noVmid: true });
    const { plan } = await buildPlan(lab.client, desired(`vms:${spec}`));
    const report = await applyPlan(impatient, plan, fastApply);
    const guest = report.guests[0]!;
    assert.equal(report.ok, true, guest.error);
    assert.equal(guest.result, "created");
    const guests = (await lab.client.request("GET", "/cluster/resources", { type: "vm" })) as Array<{ vmid: number; name?: string }>;
    assert.deepEqual(
      guests.map((g) => [g.vmid, g.name]),
      [[guest.vmid, "lost0"]],
      "one guest",
    );
  });
});
