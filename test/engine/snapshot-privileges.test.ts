// The privileges of snapshot calls come from the schema's permission of each endpoint: the
// preflight checks them like any other call.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callNeeds, missingPrivileges } from "../../src/engine/privileges.js";
import { snapshotCreateCall, snapshotDeleteCall, snapshotRollbackCall } from "../../src/resources/snapshot-calls.js";

const show = (needs: ReturnType<typeof callNeeds>) => needs.map((n) => `${n.path} ${(n.anyOf ?? [n.privilege]).join("|")}`);

describe("privileges of snapshot calls", () => {
  it("create and delete need VM.Snapshot on the guest, for VMs and containers", () => {
    for (const kind of ["qemu", "lxc"] as const) {
      assert.deepEqual(show(callNeeds(snapshotCreateCall(kind, "pve1", 100, "s1"))), ["/vms/100 VM.Snapshot"]);
      assert.deepEqual(show(callNeeds(snapshotDeleteCall(kind, "pve1", 100, "s1"))), ["/vms/100 VM.Snapshot"]);
    }
  });

  it("rollback is satisfied by VM.Snapshot or VM.Snapshot.Rollback, as the schema says", () => {
    const needs = callNeeds(snapshotRollbackCall("qemu", "pve1", 100, "s1", false)).map((n) => ({ ...n, stepId: "x" }));
    assert.deepEqual(show(needs), ["/vms/100 VM.Snapshot|VM.Snapshot.Rollback"]);
    assert.deepEqual(missingPrivileges({ "/vms/100": { "VM.Snapshot.Rollback": 1 } }, needs), []);
    assert.equal(missingPrivileges({ "/vms/100": { "VM.Audit": 1 } }, needs).length, 1);
  });
});
