import { plannedParams } from "../../src/plan/resolve-call.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { spaceProblems, volumeProblems } from "../../src/resources/snapshot-preflight.js";
import { snapshotSteps } from "../../src/resources/snapshot-steps.js";

const guest = {
  kind: "lxc" as const,
  vmid: 200,
  node: "pve1",
  name: "ct",
  status: "running" as const,
  snapshots: [{ name: "a", snaptime: 1 }],
};

describe("snapshot steps and their storage preflight", () => {
  it("a container ignores vmstate (only VMs save RAM) and stays configuration", () => {
    const { steps } = snapshotSteps(guest, { action: "create", name: "b", vmstate: true });
    assert.equal(steps[0]!.severity, "configuration");
    assert.equal(plannedParams(steps[0]!.calls[0]!).vmstate, undefined);
    assert.match(
      snapshotSteps(guest, { action: "create", name: "b", vmstate: true }).warnings?.[0] ?? "",
      /--vmstate ignored: ct is a container/,
    );
    assert.equal(snapshotSteps(guest, { action: "create", name: "b" }).warnings, undefined);
  });

  it("delete names the snapshot and is data-loss-risk", () => {
    const { steps } = snapshotSteps(guest, { action: "delete", name: "a" });
    assert.deepEqual([steps[0]!.action, steps[0]!.severity], ["snapshot-delete", "data-loss-risk"]);
    assert.match(steps[0]!.summary, /'a'/);
  });

  it("a bind mount is not a volume, and a volume on a storage the node does not list is reported, not guessed", () => {
    const storages = new Map([["local-lvm", { type: "lvmthin", total: 100, avail: 5 }]]);
    assert.deepEqual(volumeProblems("ct", [{ slot: "rootfs", volume: "local-lvm:vm-200-disk-0", storage: "local-lvm" }], storages), []);
    assert.match(volumeProblems("ct", [{ slot: "mp0", volume: "gone:vm-200-disk-1", storage: "gone" }], storages)[0]!, /does not list/);
    assert.match(
      spaceProblems("ct", [{ slot: "rootfs", volume: "local-lvm:vm-200-disk-0", storage: "local-lvm" }], storages, 10)[0]!,
      /5\.0% free/,
    );
    assert.deepEqual(spaceProblems("ct", [{ slot: "rootfs", volume: "local-lvm:vm-200-disk-0", storage: "local-lvm" }], storages, 5), []);
  });
});
