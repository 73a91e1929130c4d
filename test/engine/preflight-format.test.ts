// A format the target storage's type cannot hold is refused before anything runs: PVE's move
// would fall back to the storage's default format and the disk would never match the spec.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkFormats } from "../../src/engine/preflight-format.js";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";

const power = { shutdownTimeoutSeconds: 60, forceStop: false };

function vm(storage: string, format: string): DesiredVm {
  const disk = { slot: "scsi0", kind: "disk" as const, storage, sizeBytes: 4 * 1024 ** 3, options: {}, format };
  return { kind: "qemu", key: "f", name: "f", vmid: 130, node: "pve1", options: {}, disks: [disk], nics: [], special: {} };
}

function live(volume: string) {
  return liveVmFromConfig({ vmid: 130, node: "pve1", status: "stopped" }, { name: "f", scsi0: `${volume},size=4G` });
}

describe("disk format preflight", () => {
  it("refuses a format the target storage's type cannot hold (a move would fall back to raw and never converge)", () => {
    const plan = planUpdate(vm("local-lvm", "qcow2"), live("local-lvm:vm-130-disk-0"), power);
    const guest = {
      key: "f",
      name: "f",
      node: "pve1",
      exists: true,
      steps: plan.steps.map((s, i) => ({ ...s, id: `f/${i}` })),
      errors: [],
      warnings: [],
    };
    const storages = [{ storage: "local-lvm", node: "pve1", content: ["images"], available: true, shared: false, type: "lvmthin" }];
    const problems = checkFormats({ nodes: new Map(), storages, guests: [] }, [guest]);
    assert.deepEqual(
      problems.map((p) => p.message),
      ["scsi0: storage local-lvm (lvmthin) cannot hold qcow2 images (it holds raw): set format: raw, or put the disk on a file storage"],
    );
    storages[0]!.type = "nfs";
    assert.deepEqual(checkFormats({ nodes: new Map(), storages, guests: [] }, [guest]), []);
  });
});
