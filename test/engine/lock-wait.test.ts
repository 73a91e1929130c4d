// --lock-wait: a lock another operation holds (a backup) is waited on for as long as asked,
// the wait is shown (guest, lock kind, elapsed), and the other guests of the node go on.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { type ApplyEvent, applyPlan } from "../../src/engine/apply.js";
import { buildDestroyPlan, buildPlan } from "../../src/engine/plan.js";
import type { GuestReport } from "../../src/engine/report.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { parseDuration } from "../../src/util/duration.js";
import { pvectl, simEnv } from "../support/cli.js";
import { desired, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const vm = (vmid: number, memory = 512) => `
  - vmid: ${vmid}
    name: lw${vmid}
    node: pve1
    memory: ${memory}`;

type Event = ApplyEvent | { type: "guest-done"; report: GuestReport };

/** Far beyond fastApply's retry budget (10 attempts of at most 50 ms). */
const HOLD_MS = 1500;

describe("--lock-wait", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(() => lab.sim.admin.reset());
  after(async () => lab.close());

  async function create(yaml: string): Promise<void> {
    const { plan } = await buildPlan(lab.client, desired(`vms:${yaml}`));
    const report = await applyPlan(lab.client, plan, fastApply);
    assert.equal(report.ok, true);
  }

  it("waits on a backup lock held longer than the retries last, shows the wait, then applies", async () => {
    await create(vm(400));
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(400, 1024)}`));
    lab.sim.admin.holdLock(400, "backup");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        lab.sim.admin.releaseLock(400);
        resolve();
      }, HOLD_MS),
    );
    const events: Event[] = [];
    const report = await applyPlan(lab.client, plan, { ...fastApply, lockWaitMs: 20_000, onEvent: (e) => events.push(e) });
    await released;
    assert.equal(report.ok, true, report.guests[0]!.error);
    assert.equal(report.guests[0]!.result, "changed");
    const waits = events.filter((e) => e.type === "lock-wait");
    assert.ok(waits.length >= 1, "the wait is shown");
    const first = waits[0]!;
    assert.equal(first.guest.key, "lw400");
    assert.equal(first.lock, "backup");
    assert.equal(first.limitMs, 20_000);
    const config = (await lab.client.request("GET", "/nodes/pve1/qemu/400/config")) as { memory: string };
    assert.equal(String(config.memory), "1024");
  });

  it("applies a plan made while the backup held the lock once the backup ends (the lock line is not a change)", async () => {
    await create(vm(407));
    lab.sim.admin.holdLock(407, "backup");
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(407, 1024)}`));
    setTimeout(() => lab.sim.admin.releaseLock(407), 300);
    const report = await applyPlan(lab.client, plan, { ...fastApply, lockWaitMs: 20_000 });
    assert.equal(report.guests[0]!.result, "changed", report.guests[0]!.error);
  });

  it("still refuses a plan whose guest really changed while it waited", async () => {
    await create(vm(408));
    lab.sim.admin.holdLock(408, "backup");
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(408, 1024)}`));
    // root changes the guest during the backup (skiplock), then the backup ends.
    setTimeout(() => {
      void lab.client
        .request("PUT", "/nodes/pve1/qemu/408/config", { description: "changed by hand", skiplock: 1 })
        .finally(() => lab.sim.admin.releaseLock(408));
    }, 300);
    const report = await applyPlan(lab.client, plan, { ...fastApply, lockWaitMs: 20_000 });
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(report.guests[0]!.error ?? "", /changed since the plan was made/);
  });

  it("gives up once the lock wait is over, saying on what and how long it waited", async () => {
    await create(vm(401));
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(401, 1024)}`));
    lab.sim.admin.holdLock(401, "backup");
    const started = Date.now();
    const report = await applyPlan(lab.client, plan, { ...fastApply, lockWaitMs: 600 });
    assert.ok(Date.now() - started >= 600, "waited the whole --lock-wait");
    assert.equal(report.guests[0]!.result, "failed");
    assert.match(report.guests[0]!.error ?? "", /VM is locked \(backup\); gave up after waiting \d+ (ms|s) \(--lock-wait 600 ms\)/);
  });

  it("gives the node's slot up while waiting, so the other guests of the node go on", async () => {
    await create(`${vm(402)}${vm(403)}`);
    const { plan } = await buildPlan(lab.client, desired(`vms:${vm(402, 1024)}${vm(403, 1024)}`));
    lab.sim.admin.holdLock(402, "backup");
    let releasedAt = 0;
    setTimeout(() => {
      releasedAt = Date.now();
      lab.sim.admin.releaseLock(402);
    }, HOLD_MS);
    const doneAt = new Map<string, number>();
    const report = await applyPlan(lab.client, plan, {
      ...fastApply,
      perNodeConcurrency: 1,
      lockWaitMs: 20_000,
      onEvent: (e) => {
        if (e.type === "guest-done") doneAt.set(e.report.key, Date.now());
      },
    });
    assert.equal(report.ok, true, report.guests.map((g) => g.error).join("; "));
    assert.ok(releasedAt > 0);
    assert.ok(doneAt.get("lw403")! < releasedAt, "lw403 finished while lw402 was waiting on its lock");
    assert.ok(doneAt.get("lw402")! >= releasedAt);
  });

  it("destroy waits on the lock too", async () => {
    await create(vm(404));
    const plan = await buildDestroyPlan(lab.client, { desired: desired(`vms:${vm(404)}`) });
    lab.sim.admin.holdLock(404, "backup");
    setTimeout(() => lab.sim.admin.releaseLock(404), HOLD_MS);
    const report = await applyPlan(lab.client, plan, { ...fastApply, allowDataLoss: true, lockWaitMs: 20_000 });
    assert.equal(report.guests[0]!.result, "destroyed", report.guests[0]!.error);
  });

  it("reads durations as operators write them", () => {
    assert.equal(parseDuration("90s"), 90_000);
    assert.equal(parseDuration("30m"), 1_800_000);
    assert.equal(parseDuration("1h30m"), 5_400_000);
    assert.equal(parseDuration("45"), 45_000);
    assert.equal(parseDuration("soon"), undefined);
    assert.equal(parseDuration("-5m"), undefined);
  });
});

describe("pvectl apply --lock-wait", () => {
  let sim: RunningSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSimulator({ port: 0, seed: 5 });
    dir = mkdtempSync(join(tmpdir(), "pvectl-lockwait-"));
    env = simEnv(sim);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  });

  it("refuses a value that is not a duration before anything runs", async () => {
    const spec = join(dir, "bad.yaml");
    writeFileSync(spec, `version: 1\nvms:${vm(405)}\n`);
    const result = await pvectl(["apply", "-f", spec, "--yes", "--lock-wait", "forever"], env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /--lock-wait <duration>' argument 'forever' is invalid\. give a duration such as 90s, 30m or 2h/);
    assert.equal(result.stdout, "", "no plan, no change");
  });

  it("prints the wait on the lock in the progress lines", async () => {
    const spec = join(dir, "spec.yaml");
    writeFileSync(spec, `version: 1\nvms:${vm(406)}\n`);
    const created = await pvectl(["apply", "-f", spec, "--yes"], env);
    assert.equal(created.code, 0, created.stderr);
    writeFileSync(spec, `version: 1\nvms:${vm(406, 1024)}\n`);
    sim.admin.holdLock(406, "backup");
    // Released once the CLI has met the lock (PVE refused its write), whenever that is.
    const refused = () =>
      sim.admin.accessLog().entries.some((e) => e.method === "PUT" && e.path === "/nodes/pve1/qemu/406/config" && e.status === 500);
    const watch = setInterval(() => {
      if (!refused()) return;
      clearInterval(watch);
      setTimeout(() => sim.admin.releaseLock(406), 500);
    }, 50);
    const result = await pvectl(["apply", "-f", spec, "--yes", "--lock-wait", "2m"], env);
    clearInterval(watch);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /lw406: config waits for the backup lock \(waited \d+ (ms|s) of 2 min\)/);
  });
});
