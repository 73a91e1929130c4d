import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { snapshotUnsupported } from "../../src/resources/snapshot-storage.js";

describe("which volumes can be snapshotted", () => {
  it("allows qcow2 on file storages and any volume on thin/zfs/rbd", () => {
    for (const [t, f] of [
      ["dir", "qcow2"],
      ["nfs", "qcow2"],
      ["lvmthin", "raw"],
      ["zfspool", "raw"],
      ["rbd", undefined],
    ] as const) {
      assert.equal(snapshotUnsupported(t, f), undefined, `${t}/${f}`);
    }
  });
  it("refuses raw on dir/nfs/cifs and plain LVM, saying why", () => {
    assert.match(snapshotUnsupported("dir", "raw") ?? "", /raw volume on dir.*only qcow2/);
    assert.match(snapshotUnsupported("cifs", "vmdk") ?? "", /vmdk volume on cifs/);
    assert.match(snapshotUnsupported("lvm", "raw") ?? "", /plain LVM/);
    assert.match(snapshotUnsupported("iscsi", "raw") ?? "", /does not support snapshots/);
  });
});
