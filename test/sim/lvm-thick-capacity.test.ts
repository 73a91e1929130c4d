// A thick LVM volume group cannot over-commit: LVMPlugin's alloc_lvm_image runs lvcreate, which
// refuses a volume larger than the free extents, and lvextend refuses a growth that does not
// fit. So a full storage fails as PVE fails and never shows negative free space.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness } from "./guests-harness.js";

const config = {
  nodes: 1,
  content: [],
  storages: [{ id: "thick", type: "lvm" as const, content: "images,rootdir", size: 8 }],
};

describe("thick LVM capacity", () => {
  it("never allocates past the volume group; avail stays >= 0", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }), async (sizes) => {
        const h = new Harness({ config });
        let used = 0;
        for (const [i, gib] of sizes.entries()) {
          const upid = await h.call("POST", "/nodes/pve1/qemu", { vmid: 100 + i, scsi0: `thick:${gib}` });
          const exit = h.task(upid).exitstatus;
          if (used + gib <= 8) {
            assert.equal(exit, "OK");
            used += gib;
          } else if (used === 8) {
            // the plugin's own check compares free bytes with the size in KiB
            assert.match(String(exit), new RegExp(`not enough free space \\(0 < ${gib * 1024 * 1024}\\)$`));
          } else {
            assert.match(
              String(exit),
              new RegExp(
                `lvcreate 'thick/vm-${100 + i}-disk-0' error:   Volume group "thick" has insufficient free space \\(${(8 - used) * 256} extents\\): ${gib * 256} required\\.`,
              ),
            );
          }
        }
        const status = (await h.call("GET", "/nodes/pve1/storage/thick/status")) as Record<string, number>;
        assert.equal(status.avail, (8 - used) * 1024 ** 3);
      }),
      { numRuns: 15 },
    );
  });

  it("a resize that does not fit fails as lvextend does", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { scsi0: "thick:6" });
    const upid = await h.call("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+3G" });
    assert.equal(
      h.task(upid).exitstatus,
      "error resizing volume '/dev/thick/vm-100-disk-0':   Insufficient free space: 768 extents needed, but only 512 available",
    );
    assert.equal((await h.config(100)).scsi0, "thick:vm-100-disk-0,size=6G");
    await h.ok("PUT", "/nodes/pve1/qemu/100/resize", { disk: "scsi0", size: "+2G" });
  });
});
