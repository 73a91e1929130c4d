import { plannedParams } from "../../src/plan/resolve-call.js";
// A disk's `format:` is managed where the spec sets it: a live volume in another format (read
// from its name, as pve-storage does) is moved with PVE's move_disk `format`, on the same
// storage or another; a spec without `format` leaves the format alone.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";

const GIB = 1024 ** 3;
const power = { shutdownTimeoutSeconds: 60, forceStop: false };
const FORMATS = ["raw", "qcow2", "vmdk"] as const;

function vm(storage: string, format?: string): DesiredVm {
  const disk = {
    slot: "scsi0",
    kind: "disk" as const,
    storage,
    sizeBytes: 4 * GIB,
    options: {},
    ...(format !== undefined ? { format } : {}),
  };
  return { kind: "qemu", key: "f", name: "f", vmid: 130, node: "pve1", options: {}, disks: [disk], nics: [], special: {} };
}

function live(volume: string) {
  return liveVmFromConfig({ vmid: 130, node: "pve1", status: "stopped" }, { name: "f", scsi0: `${volume},size=4G` });
}

describe("disk format", () => {
  it("moves a disk whose format differs from the one the spec sets, passing the format; same format or unset: nothing", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMATS),
        fc.option(fc.constantFrom(...FORMATS), { nil: undefined }),
        fc.constantFrom("shared", "local"),
        (now, wanted, target) => {
          const plan = planUpdate(vm(target, wanted), live(`shared:130/vm-130-disk-0.${now}`), power);
          const moves = plan.steps.flatMap((s) => s.calls).filter((c) => c.intent.op === "move-volume");
          const expected = target !== "shared" || (wanted !== undefined && wanted !== now);
          assert.equal(moves.length, expected ? 1 : 0);
          if (expected)
            assert.deepEqual(plannedParams(moves[0]!), {
              disk: "scsi0",
              storage: target,
              ...(wanted !== undefined ? { format: wanted } : {}),
              delete: 0,
            });
        },
      ),
    );
  });

  it("reads a block storage's volume as raw", () => {
    assert.equal(live("local-lvm:vm-130-disk-0").disks.scsi0?.format, "raw");
    assert.deepEqual(planUpdate(vm("local-lvm", "raw"), live("local-lvm:vm-130-disk-0"), power).steps, []);
  });
});
