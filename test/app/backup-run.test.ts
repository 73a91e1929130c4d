// `backup run` as a plan: one vzdump per guest, the archive named in the report, the storage
// and lock preflight, foreign guests skipped, suspend/stop held back without --allow-restart,
// and a lost answer resolved without a second archive.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planBackupRun } from "../../src/app/backup-plan.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 201, name: web, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
  - { vmid: 202, name: db, node: pve1, memory: 512, disks: { scsi0: { storage: local-lvm, size: 1G } } }
containers:
  - { vmid: 203, name: cache, node: pve1, ostemplate: "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst", rootfs: { storage: local-lvm, size: 1G } }
`;

const SNAPSHOT = { storage: "local", mode: "snapshot", compress: "zstd" } as const;

async function archivesOf(lab: Lab, vmid: number): Promise<string[]> {
  const content = (await lab.client.request("GET", "/nodes/pve1/storage/local/content", { content: "backup", vmid })) as Array<{
    volid: string;
  }>;
  return content.map((c) => c.volid);
}

describe("backup run", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  beforeEach(async () => {
    lab.sim.admin.reset();
    const { report } = await converge(lab, SPEC);
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
  });
  after(() => lab.close());

  it("backs up each selected guest once and reports the archive PVE lists for it", async () => {
    const planned = await planBackupRun(
      lab.client,
      { vmids: [201, 203] },
      { ...SNAPSHOT, notesTemplate: "{{guestname}} nightly", protected: true },
    );
    assert.deepEqual(planned.plan.preflightErrors, []);
    assert.deepEqual(
      planned.plan.guests.map((g) => g.steps.map((s) => [s.action, s.severity])),
      [[["backup", "configuration"]], [["backup", "configuration"]]],
    );
    const report = await applyPlan(lab.client, planned, { ...fastApply, perNodeConcurrency: 1 });
    assert.equal(report.ok, true, JSON.stringify(report.guests.map((g) => g.error)));
    for (const vmid of [201, 203]) {
      const archives = await archivesOf(lab, vmid);
      assert.equal(archives.length, 1);
      const guest = report.guests.find((g) => g.vmid === vmid)!;
      assert.equal(guest.steps[0]!.result, `archive ${archives[0]}`);
    }
    assert.deepEqual(await archivesOf(lab, 202), [], "a guest not selected is not backed up");
    const [entry] = (await lab.client.request("GET", "/nodes/pve1/storage/local/content", { content: "backup", vmid: 201 })) as Array<{
      notes?: string;
      protected?: unknown;
    }>;
    assert.equal(entry!.notes, "web nightly");
    assert.ok(entry!.protected === 1 || entry!.protected === true);
  });

  it("refuses a storage that does not hold backups or is not on the guest's node, before anything runs", async () => {
    const images = await planBackupRun(lab.client, { vmids: [201] }, { ...SNAPSHOT, storage: "local-lvm" });
    assert.match(images.plan.preflightErrors.map((p) => p.message).join("\n"), /local-lvm does not hold backups/);
    const missing = await planBackupRun(lab.client, { vmids: [201] }, { ...SNAPSHOT, storage: "nowhere" });
    assert.match(missing.plan.preflightErrors.map((p) => p.message).join("\n"), /storage nowhere is not on node pve1.*for backups: local/);
    await assert.rejects(applyPlan(lab.client, missing, fastApply), /preflight/i);
    assert.deepEqual(await archivesOf(lab, 201), []);
  });

  it("blocks a locked guest and backs up the others", async () => {
    lab.sim.admin.holdLock(202, "migrate");
    const planned = await planBackupRun(lab.client, { vmids: [201, 202] }, SNAPSHOT);
    const db = planned.plan.guests.find((g) => g.vmid === 202)!;
    assert.match(db.errors.join(), /locked \(migrate\)/);
    const report = await applyPlan(lab.client, planned, fastApply);
    assert.equal(report.guests.find((g) => g.vmid === 202)!.result, "failed");
    assert.equal((await archivesOf(lab, 201)).length, 1);
    assert.deepEqual(await archivesOf(lab, 202), []);
  });

  it("says --lock-wait when a guest is locked; with it, the backup waits for the lock and then runs", async () => {
    lab.sim.admin.holdLock(202, "migrate");
    const refused = await planBackupRun(lab.client, { vmids: [202] }, SNAPSHOT);
    assert.match(refused.plan.guests[0]!.errors.join(), /locked \(migrate\).*--lock-wait/);
    const planned = await planBackupRun(lab.client, { vmids: [202] }, { ...SNAPSHOT, lockWait: true });
    assert.deepEqual(planned.plan.guests[0]!.errors, []);
    assert.match(planned.plan.guests[0]!.warnings.join(), /locked \(migrate\) now: its backup waits for the lock/);
    const release = setTimeout(() => lab.sim.admin.releaseLock(202), 1500);
    try {
      const report = await applyPlan(lab.client, planned, { ...fastApply, lockWaitMs: 20_000 });
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.equal((await archivesOf(lab, 202)).length, 1);
    } finally {
      clearTimeout(release);
    }
  });

  it("a guest locked after the plan: its failure says --lock-wait; with --lock-wait it waits and is backed up", async () => {
    const planned = await planBackupRun(lab.client, { vmids: [202] }, SNAPSHOT);
    lab.sim.admin.holdLock(202, "migrate");
    const failed = await applyPlan(lab.client, planned, fastApply);
    assert.match(failed.guests[0]!.error ?? "", /locked \(migrate\).*--lock-wait/s);
    const release = setTimeout(() => lab.sim.admin.releaseLock(202), 1500);
    try {
      const report = await applyPlan(lab.client, planned, { ...fastApply, lockWaitMs: 20_000 });
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.equal((await archivesOf(lab, 202)).length, 1);
    } finally {
      clearTimeout(release);
    }
  });

  it("skips guests pvectl did not create unless --include-foreign", async () => {
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 290, name: "theirs", tags: "other" })) as string,
    );
    const planned = await planBackupRun(lab.client, { all: true }, SNAPSHOT);
    assert.deepEqual(
      planned.plan.guests.map((g) => g.vmid),
      [201, 202, 203],
    );
    assert.deepEqual(
      planned.selection.skipped.map((s) => s.guest.vmid),
      [290],
    );
    const foreign = await planBackupRun(lab.client, { vmids: [290], includeForeign: true }, SNAPSHOT);
    assert.deepEqual(
      foreign.plan.guests.map((g) => g.vmid),
      [290],
    );
  });

  it("holds back suspend and stop mode backups of running guests without --allow-restart", async () => {
    await lab.client.waitForTask((await lab.client.request("POST", "/nodes/pve1/qemu/201/status/start")) as string);
    const planned = await planBackupRun(lab.client, { vmids: [201, 202] }, { ...SNAPSHOT, mode: "suspend" });
    const severities = Object.fromEntries(planned.plan.guests.map((g) => [g.vmid, g.steps[0]!.severity]));
    assert.deepEqual(severities, { 201: "service-impact", 202: "configuration" }, "a stopped guest is not disturbed by suspend mode");
    const held = await applyPlan(lab.client, planned, fastApply);
    assert.equal(held.guests.find((g) => g.vmid === 201)!.result, "skipped");
    assert.deepEqual(await archivesOf(lab, 201), []);
    const allowed = await applyPlan(lab.client, await planBackupRun(lab.client, { vmids: [201] }, { ...SNAPSHOT, mode: "suspend" }), {
      ...fastApply,
      allowRestart: true,
    });
    assert.equal(allowed.ok, true);
    assert.equal((await archivesOf(lab, 201)).length, 1);
  });

  for (const [what, fault] of [
    ["dropped", { dropResponse: true }],
    ["held past the client's timeout", { responseDelayMs: 1500 }],
  ] as const) {
    it(`writes one archive when the vzdump answer is ${what}`, async () => {
      const url = new URL(lab.sim.url);
      const impatient = new PveClient({
        host: url.hostname,
        port: Number(url.port),
        protocol: "http",
        user: "root@pam",
        password: lab.sim.rootPassword,
        timeoutMs: 250,
      });
      try {
        const planned = await planBackupRun(impatient, { vmids: [201] }, SNAPSHOT);
        lab.sim.admin.injectFault({ method: "POST", path: "^/nodes/pve1/vzdump$", ...fault, times: 1 });
        const report = await applyPlan(impatient, planned, fastApply);
        await new Promise((resolve) => setTimeout(resolve, 1700));
        assert.equal(report.ok, true, report.guests[0]!.error);
        const archives = await archivesOf(lab, 201);
        assert.equal(archives.length, 1, `one archive, not a second one from a resend: ${archives.join(", ")}`);
        assert.equal(report.guests[0]!.steps[0]!.result, `archive ${archives[0]}`);
      } finally {
        await impatient.close();
      }
    });
  }
});
