// A vmid reused after its guest was destroyed: the archives the old guest left under it are
// not the new guest's. `backup list` marks them as a previous guest's (made before the new
// guest was created: the VM's `meta` ctime), and `backup prune` never counts or deletes them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyPlan } from "../../src/app/apply-plan.js";
import { listBackups } from "../../src/app/backup-list.js";
import { planBackupPrune, planBackupRun } from "../../src/app/backup-plan.js";
import { renderArchives } from "../../src/cli/render/backups.js";
import { converge, fastApply, type Lab, startLab } from "../support/engine-lab.js";

const OLD = `vms:\n  - { vmid: 402, name: old, node: pve1, memory: 256, disks: { scsi0: { storage: local-lvm, size: 1G } } }\n`;
const NEW = `vms:\n  - { vmid: 402, name: new, node: pve1, memory: 256, disks: { scsi0: { storage: local-lvm, size: 1G } } }\n`;

describe("backups of a reused vmid", () => {
  let lab: Lab;
  before(async () => {
    lab = await startLab();
  });
  after(() => lab.close());

  async function backUp(): Promise<void> {
    const planned = await planBackupRun(lab.client, { vmids: [402] }, { storage: "local", mode: "snapshot", compress: "zstd" });
    assert.equal((await applyPlan(lab.client, planned, fastApply)).ok, true);
    lab.sim.admin.advanceClock(3600);
  }

  it("lists the old guest's archives as a previous guest's, and prune leaves them alone", async () => {
    assert.equal((await converge(lab, OLD)).report.ok, true);
    await backUp();
    await backUp();
    await lab.client.request("DELETE", "/nodes/pve1/qemu/402", { purge: 1 });
    lab.sim.admin.advanceClock(3600);
    assert.equal((await converge(lab, NEW)).report.ok, true);
    await backUp();

    const listing = await listBackups(lab.client, { vmids: [402] });
    assert.deepEqual(
      listing.archives.map((a) => a.previousGuest === true),
      [true, true, false],
    );
    const rows = renderArchives(listing.archives)
      .split("\n")
      .filter((l) => l.startsWith("402"));
    assert.deepEqual(
      rows.map((l) => l.split(/\s{2,}/)[1]),
      ["(previous guest)", "(previous guest)", "new"],
    );

    const prune = await planBackupPrune(lab.client, { vmids: [402] }, { storage: "local", retention: { "keep-last": 1 } });
    const guest = prune.plan.guests[0]!;
    assert.deepEqual(guest.steps, [], "nothing of the previous guest is deleted as the new guest's");
    assert.match(guest.warnings.join("\n"), /kept 2 archives of a previous guest with vmid 402/);
  });
});
