import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { snapshotCreateCall, snapshotDeleteCall, snapshotRollbackCall } from "../../src/resources/snapshot-calls.js";

describe("snapshot calls", () => {
  it("sends vmstate only for VMs", () => {
    assert.deepEqual(plannedParams(snapshotCreateCall("qemu", "pve1", 101, "auto-1", { vmstate: true })), {
      snapname: "auto-1",
      vmstate: 1,
    });
    assert.deepEqual(plannedParams(snapshotCreateCall("lxc", "pve1", 201, "auto-1", { vmstate: true })), { snapname: "auto-1" });
  });
  it("addresses delete and rollback by the snapshot's name under the guest's kind", () => {
    assert.equal(plannedPath(snapshotDeleteCall("lxc", "pve1", 201, "s1")), "/nodes/pve1/lxc/201/snapshot/s1");
    const rb = snapshotRollbackCall("qemu", "pve1", 101, "s1", true);
    assert.equal(plannedPath(rb), "/nodes/pve1/qemu/101/snapshot/s1/rollback");
    assert.deepEqual(plannedParams(rb), { start: 1 });
  });
});
