// The per-storage volume index (src/sim/cluster/volumes.ts) must answer exactly what a pass over
// every volume answers: same disk numbers, same lookups, also after removals, template renames
// and volumes pushed straight onto state.volumes (older handlers, state files).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ClusterState, VolumeState } from "../../src/sim/cluster/types.js";
import { addVolume, allocateVolume, findStorage, findVolume, removeVolume, renameToBase } from "../../src/sim/cluster/volumes.js";
import { Harness } from "./guests-harness.js";

/** What the allocator did before the index: the lowest free N over every volume of the vmid. */
function scanNextDisk(state: ClusterState, storage: string, shared: boolean, node: string, vmid: number): number {
  const used = new Set<number>();
  for (const v of state.volumes) {
    if (v.storage !== storage || (!shared && v.node !== node)) continue;
    const m = /(?:^|[:/])(?:vm|base|subvol)-(\d+)-disk-(\d+)(?:\.\w+)?$/.exec(v.volid);
    if (m && Number(m[1]) === vmid) used.add(Number(m[2]));
  }
  let n = 0;
  while (used.has(n)) n++;
  return n;
}

function allocate(state: ClusterState, storageId: string, node: string, vmid: number): VolumeState {
  const storage = findStorage(state, storageId);
  assert.ok(storage);
  const expected = scanNextDisk(state, storageId, storage.shared, node, vmid);
  const volume = allocateVolume(state, { storage, node, vmid, size: 1024, content: "images", ctime: 0 });
  assert.match(volume.volid, new RegExp(`vm-${vmid}-disk-${expected}(\\.\\w+)?$`), `${volume.volid}: expected disk-${expected}`);
  return volume;
}

describe("volume index", () => {
  it("allocates the same disk numbers as a full scan, across storages, nodes, removals and renames", () => {
    const state = new Harness({ nodes: 2 }).model.state;
    for (let round = 0; round < 3; round++) {
      for (const vmid of [100, 101, 1000]) {
        for (const [storage, node] of [
          ["local-lvm", "pve1"],
          ["local-lvm", "pve2"],
          ["local", "pve1"],
          ["shared", "pve1"],
          ["shared", "pve2"],
        ] as const) {
          allocate(state, storage, node, vmid);
        }
      }
    }
    // a hole is reused: disk-1 freed on pve1's local-lvm, not on pve2's
    assert.ok(removeVolume(state, "local-lvm:vm-100-disk-1", "pve1"));
    assert.equal(allocate(state, "local-lvm", "pve1", 100).volid, "local-lvm:vm-100-disk-1");
    assert.equal(allocate(state, "local-lvm", "pve2", 100).volid, "local-lvm:vm-100-disk-3");
    // a template's base-N keeps its number taken; lookups follow the new name
    const renamed = renameToBase(state, "shared:100/vm-100-disk-0.raw", "pve1");
    assert.equal(findVolume(state, "shared:100/vm-100-disk-0.raw", "pve1"), undefined);
    assert.equal(findVolume(state, renamed, "pve2")?.volid, renamed);
    assert.equal(allocate(state, "shared", "pve1", 100).volid, "shared:100/vm-100-disk-6.raw");
  });

  it("sees volumes pushed straight onto state.volumes and removed behind its back", () => {
    const state = new Harness().model.state;
    allocate(state, "local-lvm", "pve1", 200);
    state.volumes.push({
      volid: "local-lvm:vm-200-disk-1",
      storage: "local-lvm",
      content: "images",
      format: "raw",
      size: 1,
      ctime: 0,
      vmid: 200,
      node: "pve1",
    });
    assert.equal(findVolume(state, "local-lvm:vm-200-disk-1", "pve1")?.size, 1);
    assert.equal(allocate(state, "local-lvm", "pve1", 200).volid, "local-lvm:vm-200-disk-2");
    // splice one out and push another (same length, new last element): still rebuilt
    state.volumes.splice(
      state.volumes.findIndex((v) => v.volid === "local-lvm:vm-200-disk-1"),
      1,
    );
    state.volumes.push({
      volid: "local-lvm:vm-201-disk-0",
      storage: "local-lvm",
      content: "images",
      format: "raw",
      size: 1,
      ctime: 0,
      vmid: 201,
      node: "pve1",
    });
    assert.equal(findVolume(state, "local-lvm:vm-200-disk-1", "pve1"), undefined);
    assert.equal(allocate(state, "local-lvm", "pve1", 200).volid, "local-lvm:vm-200-disk-1");
    addVolume(state, {
      volid: "local-lvm:vm-200-disk-9",
      storage: "local-lvm",
      content: "images",
      format: "raw",
      size: 1,
      ctime: 0,
      vmid: 200,
      node: "pve1",
    });
    assert.equal(findVolume(state, "local-lvm:vm-200-disk-9", "pve1")?.size, 1);
  });
});
