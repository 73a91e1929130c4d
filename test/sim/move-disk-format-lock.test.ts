// qemu-server's move_disk: without `format` the target format is resolve_dst_disk_format's (the
// source's format when the target storage supports it, else the storage's default, raw), and
// the worker holds the VM's config-file lock for the whole copy, so a second move of the same
// VM started meanwhile fails on the lock instead of making a second copy.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness } from "./guests-harness.js";

const config = {
  nodes: 1,
  content: [],
  storages: [
    { id: "local-lvm", type: "lvmthin" as const, content: "images,rootdir" },
    { id: "nfs", type: "nfs" as const, content: "images", path: "/mnt/pve/nfs" },
    { id: "dir", type: "dir" as const, content: "images", path: "/var/lib/dir" },
    { id: "zfs", type: "zfspool" as const, content: "images" },
    { id: "bt", type: "btrfs" as const, content: "images", path: "/mnt/bt" },
  ],
};
const VALID: Record<string, string[]> = {
  "local-lvm": ["raw"],
  nfs: ["raw", "qcow2", "vmdk"],
  dir: ["raw", "qcow2", "vmdk"],
  zfs: ["raw"],
  bt: ["raw"],
};

function formatOf(volid: string): string {
  const m = /\.(raw|qcow2|vmdk)$/.exec(volid);
  return m ? (m[1] as string) : "raw";
}

describe("move_disk target format", () => {
  it("keeps the source format where the target supports it, else raw", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("raw", "qcow2", "vmdk"),
        fc.constantFrom("local-lvm", "nfs", "zfs", "bt"),
        async (sourceFormat, target) => {
          const h = new Harness({ config });
          await h.createVm(100, { scsi0: `dir:1,format=${sourceFormat}` });
          const before = String((await h.config(100)).scsi0);
          assert.equal(formatOf(before.split(",")[0] as string), sourceFormat);
          await h.ok("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: target });
          const moved = String((await h.config(100)).scsi0).split(",")[0] as string;
          const expected = VALID[target]?.includes(sourceFormat) ? sourceFormat : "raw";
          assert.equal(formatOf(moved), expected, moved);
          assert.equal(h.model.state.volumes.find((v) => v.volid === moved)?.format, expected);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("move_disk and the VM's config-file lock", () => {
  it("a second move of the same VM while the first copies fails on the lock and leaves no copy", async () => {
    const h = new Harness({ config, deferTasks: true });
    await h.call("POST", "/nodes/pve1/qemu", { vmid: 100, scsi0: "local-lvm:4", scsi1: "local-lvm:1" });
    await h.runTasks();
    const first = await h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: "nfs" });
    const second = await h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi0", storage: "dir" });
    const other = await h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", storage: "dir" });
    await h.runTasks();
    assert.equal(h.task(first).exitstatus, "OK");
    const lockError = "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout";
    assert.equal(h.task(second).exitstatus, lockError);
    assert.equal(h.task(other).exitstatus, lockError);
    const cfg = await h.config(100);
    assert.equal(cfg.scsi0, "nfs:100/vm-100-disk-0.raw,size=4G");
    assert.equal(cfg.unused0, "local-lvm:vm-100-disk-0");
    assert.deepEqual(
      h.model.state.volumes
        .filter((v) => v.vmid === 100)
        .map((v) => v.volid)
        .sort(),
      ["local-lvm:vm-100-disk-0", "local-lvm:vm-100-disk-1", "nfs:100/vm-100-disk-0.raw"],
    );
    // the lock is free again once the first move ended
    await h.call("POST", "/nodes/pve1/qemu/100/move_disk", { disk: "scsi1", storage: "dir" });
    await h.runTasks();
    assert.equal(h.lastTask().exitstatus, "OK");
  });
});
