// Disks by identity, not position: a built record's virtual disks keep the slots recorded on the
// guest (tags netbox-disk-<id>-<slot>). Deleting the first virtual disk in NetBox is the removal
// of exactly its slot (guarded as data loss), never a grow of scsi0 to the data disk's size and
// a delete of the data disk; a new virtual disk takes a free slot; a guest built before the tags
// existed is adopted by position only when every size matches exactly.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import {
  createTwoDiskRecord,
  DAY2_CONFIG,
  DISKS,
  diskSteps,
  forgetDiskIdentity,
  GIB_IN_MIB,
  guestDisks,
  guestPlanOf,
  runDiskIdentityScenario,
  syncRecord,
} from "./disk-identity-lab.js";
import { type NetboxLab, startNetboxLab } from "../support/netbox-lab.js";

describe("netbox sync: disks by identity", () => {
  let lab: NetboxLab;
  afterEach(() => lab.close());

  test("deleting the first virtual disk removes its slot only (guarded); the data disk keeps its slot and size; a new virtual disk takes a free slot", async () => {
    lab = await startNetboxLab(DAY2_CONFIG);
    await runDiskIdentityScenario(lab, (opts) => syncRecord(lab, "app-01", opts));
  });

  test("a guest built before the identity was recorded is adopted by position once, only when every size matches exactly", async () => {
    lab = await startNetboxLab(DAY2_CONFIG);
    const rec = createTwoDiskRecord(lab);
    await syncRecord(lab, rec.name);
    const built = await guestDisks(lab, rec.vmId);
    await forgetDiskIdentity(lab, built);
    assert.deepEqual((await guestDisks(lab, rec.vmId)).holds, {});

    // A size that no longer matches: nothing is guessed, the plan names the slots and the virtual disks.
    lab.nb.admin.update(DISKS, rec.data, { size: 120 * GIB_IN_MIB });
    const refused = await syncRecord(lab, rec.name);
    const guest = guestPlanOf(refused.plans, rec.name);
    assert.deepEqual(guest.steps, [], "no resize, no delete");
    assert.match(guest.errors.join("\n"), /scsi1 \(100 GiB\).*virtual disk `data` \(id \d+\), 120 GiB/);
    assert.equal(refused.records[0]?.result, "failed");
    assert.deepEqual((await guestDisks(lab, rec.vmId)).sizes, built.sizes);

    lab.nb.admin.update(DISKS, rec.data, { size: 100 * GIB_IN_MIB });
    const adopted = await syncRecord(lab, rec.name);
    const plan = guestPlanOf(adopted.plans, rec.name);
    assert.deepEqual(diskSteps(plan.steps), []);
    assert.match(plan.warnings.join("\n"), /adopted by position .*scsi0 = virtual disk `os`.*scsi1 = virtual disk `data`/);
    assert.deepEqual((await guestDisks(lab, rec.vmId)).holds, { scsi0: rec.os, scsi1: rec.data }, "recorded by the same plan");
  });

  test("a recorded virtual disk moved to another record is a plan error naming the slot and both records, never a delete", async () => {
    lab = await startNetboxLab(DAY2_CONFIG);
    const rec = createTwoDiskRecord(lab);
    await syncRecord(lab, rec.name);
    const other = createTwoDiskRecord(lab, "app-02");
    lab.nb.admin.update(DISKS, rec.data, { virtual_machine: other.vmId, name: "data-of-app-01" });
    const result = await syncRecord(lab, rec.name);
    const guest = guestPlanOf(result.plans, rec.name);
    assert.deepEqual(guest.steps, []);
    assert.match(
      guest.errors.join("\n"),
      new RegExp(`scsi1 holds NetBox virtual disk id ${rec.data} .*now belongs to virtual machine app-02`),
    );
    assert.deepEqual(Object.keys((await guestDisks(lab, rec.vmId)).sizes), ["scsi0", "scsi1"]);
  });
});
