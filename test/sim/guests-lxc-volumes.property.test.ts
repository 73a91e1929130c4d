// Invariants of container volumes across any mix of creates, mount-point additions, moves and
// destroys on every storage type: each configured volume exists exactly once with the format
// alloc_disk picks (raw/subvol by storage type and size), names never collide, and a destroyed
// container leaves no volume of its vmid behind.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { driveVolume, isVolumeKey } from "../../src/sim/cluster/drives.js";
import { containerFormat, findStorage } from "../../src/sim/cluster/volumes.js";
import { Harness } from "./guests-harness.js";

const TEMPLATE = "local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst";
const STORAGES = ["local", "local-lvm", "tank", "ceph"];

type Op =
  | { kind: "create"; vmid: number; rootfs: string; size: number }
  | { kind: "addMp"; vmid: number; slot: number; storage: string; size: number }
  | { kind: "move"; vmid: number; storage: string; del: boolean }
  | { kind: "destroy"; vmid: number };

const vmid = fc.integer({ min: 200, max: 203 });
const storage = fc.constantFrom(...STORAGES);
const size = fc.constantFrom(0, 1, 2);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), vmid, rootfs: storage, size: fc.constantFrom(1, 4) }),
  fc.record({ kind: fc.constant("addMp" as const), vmid, slot: fc.integer({ min: 0, max: 3 }), storage, size }),
  fc.record({ kind: fc.constant("move" as const), vmid, storage, del: fc.boolean() }),
  fc.record({ kind: fc.constant("destroy" as const), vmid }),
);

function harness(): Harness {
  return new Harness({
    config: {
      nodes: ["pve1"],
      bridges: ["vmbr0"],
      storages: [
        { id: "local", type: "dir", content: "iso,vztmpl,rootdir,images" },
        { id: "local-lvm", type: "lvmthin", content: "images,rootdir" },
        { id: "tank", type: "zfspool", content: "images,rootdir" },
        { id: "ceph", type: "rbd", content: "images,rootdir" },
      ],
      content: [TEMPLATE],
    },
  });
}

/** Runs an operation; PVE's refusals (500s, failed tasks) are part of the game. */
async function apply(h: Harness, o: Op): Promise<void> {
  const path = `/nodes/pve1/lxc/${o.vmid}`;
  const attempt = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch {
      // refused: the state must still hold the invariants
    }
  };
  if (o.kind === "create")
    await attempt(h.call("POST", "/nodes/pve1/lxc", { vmid: o.vmid, ostemplate: TEMPLATE, rootfs: `${o.rootfs}:${o.size}` }));
  if (o.kind === "addMp") await attempt(h.call("PUT", `${path}/config`, { [`mp${o.slot}`]: `${o.storage}:${o.size},mp=/m${o.slot}` }));
  if (o.kind === "move")
    await attempt(h.call("POST", `${path}/move_volume`, { volume: "rootfs", storage: o.storage, delete: o.del ? 1 : 0 }));
  if (o.kind === "destroy") await attempt(h.call("DELETE", path));
}

function checkInvariants(h: Harness, destroyed: Set<number>): void {
  const { state } = h.model;
  const volids = state.volumes.map((v) => `${v.storage}/${v.node ?? ""}/${v.volid}`);
  assert.equal(new Set(volids).size, volids.length, "volume names collide");
  for (const guest of state.guests) {
    for (const [key, value] of Object.entries(guest.config)) {
      if (!isVolumeKey("lxc", key)) continue;
      const volid = driveVolume(String(value)) ?? "";
      const volume = state.volumes.find((v) => v.volid === volid);
      assert.ok(volume, `${guest.vmid} ${key} names a volume that does not exist: ${volid}`);
      const store = findStorage(state, volume.storage);
      assert.ok(store);
      assert.equal(volume.format, containerFormat(store, volume.size), `${volid} has the wrong format`);
      assert.match(volid, volume.format === "subvol" ? /subvol-\d+-disk-\d+/ : /vm-\d+-disk-\d+/);
    }
  }
  for (const id of destroyed) {
    if (h.model.guest(id)) continue;
    assert.deepEqual(
      state.volumes.filter((v) => v.vmid === id).map((v) => v.volid),
      [],
      `CT ${id} left volumes behind`,
    );
  }
}

describe("container volumes (property)", () => {
  it("stay consistent through creates, new mount points, moves and destroys", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const h = harness();
        const destroyed = new Set<number>();
        for (const o of ops) {
          await apply(h, o);
          if (o.kind === "destroy") destroyed.add(o.vmid);
          if (o.kind === "create") destroyed.delete(o.vmid);
          checkInvariants(h, destroyed);
        }
      }),
      { numRuns: 150 },
    );
  });
});
