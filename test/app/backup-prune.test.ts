// `backup prune`: the plan deletes exactly the archives PVE's prune dry run marks `remove`,
// each named, data-loss-risk (nothing goes without --allow-data-loss); protected archives are
// kept and said so; an archive made after the plan is not touched; foreign guests' archives
// are left alone; a lost delete answer is resolved by reading back.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { PveClient } from "../../src/api/index.js";
import { applyPlan } from "../../src/app/apply-plan.js";
import { planBackupPrune, planBackupRun } from "../../src/app/backup-plan.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const SPEC = `vms:
  - { vmid: 401, name: web, node: pve1, memory: 256, disks: { scsi0: { storage: local-lvm, size: 1G } } }
`;

describe("backup prune", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(() => lab.close());

  async function backUp(vmids: number[], includeForeign = false): Promise<void> {
    const planned = await planBackupRun(lab.client, { vmids, includeForeign }, { storage: "local", mode: "snapshot", compress: "zstd" });
    assert.equal((await applyPlan(lab.client, planned, fastApply)).ok, true);
    // Archive names carry the second they were made in.
    lab.sim.admin.advanceClock(3600);
  }

  async function archives(vmid: number): Promise<Array<{ volid: string; ctime: number }>> {
    const content = (await lab.client.request("GET", "/nodes/pve1/storage/local/content", { content: "backup", vmid })) as Array<{
      volid: string;
      ctime: number;
    }>;
    return content.sort((a, b) => a.ctime - b.ctime);
  }

  let oldest: string;
  let protectedOne: string;
  beforeEach(async () => {
    lab.sim.admin.reset();
    assert.equal((await converge(lab, SPEC)).report.ok, true);
    for (let i = 0; i < 4; i++) await backUp([401]);
    const made = await archives(401);
    oldest = made[0]!.volid;
    protectedOne = made[1]!.volid;
    await lab.client.request("PUT", `/nodes/pve1/storage/local/content/${encodeURIComponent(protectedOne)}`, { protected: 1 });
  });

  it("plans one data-loss-risk delete per archive PVE marks remove, keeping protected ones and saying so", async () => {
    const planned = await planBackupPrune(lab.client, { vmids: [401] }, { storage: "local", retention: { "keep-last": 2 } });
    assert.deepEqual(planned.plan.preflightErrors, []);
    const [guest] = planned.plan.guests;
    assert.deepEqual(
      guest!.steps.map((s) => [s.action, s.severity, s.deletesVolumes]),
      [["archive-delete", "data-loss-risk", [oldest]]],
    );
    assert.match(guest!.warnings.join("\n"), new RegExp(`kept ${protectedOne.replace(/[.]/g, "\\.")}: protected`));
    const refused = await applyPlan(lab.client, planned, fastApply);
    assert.equal(refused.guests[0]!.result, "skipped");
    assert.equal((await archives(401)).length, 4, "nothing is deleted without --allow-data-loss");
    const done = await applyPlan(lab.client, planned, { ...fastApply, allowDataLoss: true });
    assert.equal(done.ok, true, done.guests[0]!.error);
    assert.deepEqual((await archives(401)).map((a) => a.volid).includes(oldest), false);
    assert.equal((await archives(401)).length, 3);
  });

  it("deletes what the plan named, not what a prune at apply time would (an archive made meanwhile changes nothing)", async () => {
    const planned = await planBackupPrune(lab.client, { vmids: [401] }, { storage: "local", retention: { "keep-last": 2 } });
    await backUp([401]);
    const before = (await archives(401)).map((a) => a.volid);
    await applyPlan(lab.client, planned, { ...fastApply, allowDataLoss: true });
    assert.deepEqual(
      (await archives(401)).map((a) => a.volid),
      before.filter((v) => v !== oldest),
    );
  });

  it("leaves archives of guests pvectl did not create alone unless --include-foreign", async () => {
    await lab.client.waitForTask(
      (await lab.client.request("POST", "/nodes/pve1/qemu", { vmid: 490, name: "theirs", tags: "other" })) as string,
    );
    for (let i = 0; i < 2; i++) await backUp([490], true);
    const planned = await planBackupPrune(lab.client, { all: true }, { storage: "local", retention: { "keep-last": 1 } });
    assert.deepEqual(
      planned.plan.guests.map((g) => g.vmid),
      [401],
    );
    assert.deepEqual(
      planned.selection.skipped.map((s) => s.guest.vmid),
      [490],
    );
    await applyPlan(lab.client, planned, { ...fastApply, allowDataLoss: true });
    assert.equal((await archives(490)).length, 2);
  });

  it("resolves a lost delete answer by reading back (the archive is gone), without failing on a resend", async () => {
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
      const planned = await planBackupPrune(impatient, { vmids: [401] }, { storage: "local", retention: { "keep-last": 2 } });
      lab.sim.admin.injectFault({ method: "DELETE", path: "^/nodes/pve1/storage/local/content/", dropResponse: true, times: 1 });
      const report = await applyPlan(impatient, planned, { ...fastApply, allowDataLoss: true });
      assert.equal(report.ok, true, report.guests[0]!.error);
      assert.equal(
        (await archives(401)).some((a) => a.volid === oldest),
        false,
      );
    } finally {
      await impatient.close();
    }
  });
});
