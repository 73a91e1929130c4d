// The format of a new VM disk whose create/update names none: PVE::Storage's
// storage_default_format, the plugin's default (raw for dir, nfs, cifs alike); a cloud-init drive
// is qcow2 on a storage with a path (qemu-server's create_disks), raw elsewhere.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ClusterConfig } from "../../src/sim/cluster/index.js";
import { Harness } from "./guests-harness.js";

const config: ClusterConfig = {
  nodes: 1,
  storages: [
    { id: "dirstore", type: "dir", content: ["images"], path: "/srv/dir" },
    { id: "nfsstore", type: "nfs", content: ["images"], shared: true },
    { id: "cifsstore", type: "cifs", content: ["images"], shared: true },
    { id: "thin", type: "lvmthin", content: ["images"] },
  ],
  content: [],
};
const fileStorages = ["dirstore", "nfsstore", "cifsstore"];

function formatOf(h: Harness, volid: string): string | undefined {
  return h.model.state.volumes.find((v) => v.volid === volid)?.format;
}

describe("default format of a new disk", () => {
  it("is raw on dir, nfs and cifs unless format= asks otherwise, on create as on update", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fileStorages),
        fc.constantFrom(undefined, "raw", "qcow2", "vmdk"),
        fc.boolean(),
        async (storage, format, onUpdate) => {
          const h = new Harness({ config });
          const disk = `${storage}:1${format ? `,format=${format}` : ""}`;
          if (onUpdate) {
            await h.createVm(100);
            await h.call("PUT", "/nodes/pve1/qemu/100/config", { scsi0: disk });
          } else {
            await h.createVm(100, { scsi0: disk });
          }
          const expected = format ?? "raw";
          const volid = String((await h.config(100)).scsi0).split(",")[0] ?? "";
          assert.equal(volid, `${storage}:100/vm-100-disk-0.${expected}`);
          assert.equal(formatOf(h, volid), expected);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("a cloud-init drive is qcow2 on a storage with a path and raw on a block storage", async () => {
    const h = new Harness({ config });
    await h.createVm(100, { ide2: "dirstore:cloudinit" });
    assert.equal((await h.config(100)).ide2, "dirstore:100/vm-100-cloudinit.qcow2,media=cdrom");
    await h.createVm(101, { ide2: "thin:cloudinit" });
    assert.equal((await h.config(101)).ide2, "thin:vm-101-cloudinit,media=cdrom");
  });
});
