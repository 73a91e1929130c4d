// Drain placement as properties, on random nodes and guests: every guest is either moved or left
// with a reason; a move goes only to an online node that has the guest's storages and bridges;
// running guests never take more memory on a node than it has free; --online-only never moves a
// running container; and when one node could take every guest, none is left behind.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type DrainGuest, type DrainTarget, placeDrain } from "../../src/engine/drain-placement.js";

const GiB = 1024 ** 3;
const STORAGES = ["local-lvm", "local-zfs", "shared"];
const BRIDGES = ["vmbr0", "vmbr1", "vnet10"];

const guest = (vmid: number) =>
  fc.record({
    vmid: fc.constant(vmid),
    name: fc.constant(`g${vmid}`),
    running: fc.boolean(),
    memory: fc.integer({ min: 1, max: 16 }).map((g) => g * GiB),
    storages: fc.subarray(STORAGES, { minLength: 1 }),
    bridges: fc.subarray(BRIDGES, { minLength: 1 }),
    restartsWhenMoved: fc.boolean(),
    blocked: fc.option(fc.constant("local CD-ROM /dev/sr0"), { nil: undefined, freq: 8 }),
  }) as fc.Arbitrary<DrainGuest>;

const guests = fc.integer({ min: 0, max: 12 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => guest(100 + i))));

const target = (name: string) =>
  fc.record({
    name: fc.constant(name),
    online: fc.boolean(),
    memoryFree: fc.integer({ min: 0, max: 64 }).map((g) => g * GiB),
    storages: fc.subarray(STORAGES),
    bridges: fc.subarray(BRIDGES),
  }) as fc.Arbitrary<DrainTarget>;

const targets = fc.tuple(target("pve2"), target("pve3"), target("pve4"));

describe("drain placement", () => {
  it("moves each guest at most once, only where it fits, within each node's free memory", () => {
    fc.assert(
      fc.property(guests, targets, fc.boolean(), (gs, ts, onlineOnly) => {
        const { moves, left } = placeDrain(gs, ts, { onlineOnly });
        const placed = [...moves.map((m) => m.guest.vmid), ...left.map((l) => l.guest.vmid)].sort((a, b) => a - b);
        assert.deepEqual(
          placed,
          gs.map((g) => g.vmid).sort((a, b) => a - b),
        );
        for (const l of left) assert.ok(l.reason.length > 0);
        const used = new Map<string, number>();
        for (const { guest: g, target: name } of moves) {
          const t = ts.find((x) => x.name === name);
          assert.ok(t?.online, `${name} is online`);
          assert.equal(g.blocked, undefined);
          for (const s of g.storages) assert.ok(t.storages.includes(s), `${name} has ${s}`);
          for (const b of g.bridges) assert.ok(t.bridges.includes(b), `${name} has ${b}`);
          if (onlineOnly) assert.ok(!(g.running && g.restartsWhenMoved), "no container restart under --online-only");
          if (g.running) used.set(name, (used.get(name) ?? 0) + g.memory);
        }
        for (const [name, bytes] of used) assert.ok(bytes <= ts.find((t) => t.name === name)!.memoryFree);
      }),
      { seed: 4242, numRuns: 300 },
    );
  });

  it("leaves nothing behind that one roomy node could take", () => {
    fc.assert(
      fc.property(guests, targets, (gs, ts) => {
        const roomy: DrainTarget = {
          name: "pve9",
          online: true,
          memoryFree: gs.reduce((sum, g) => sum + g.memory, 0),
          storages: STORAGES,
          bridges: BRIDGES,
        };
        const { left } = placeDrain(gs, [...ts, roomy]);
        assert.deepEqual(
          left.map((l) => l.guest.vmid).sort((a, b) => a - b),
          gs
            .filter((g) => g.blocked !== undefined)
            .map((g) => g.vmid)
            .sort((a, b) => a - b),
        );
      }),
      { seed: 4243, numRuns: 300 },
    );
  });

  it("spreads running guests by free memory and says why a guest fits nowhere", () => {
    const vm = (vmid: number, memory: number): DrainGuest => ({
      vmid,
      name: `vm${vmid}`,
      running: true,
      memory: memory * GiB,
      storages: ["local-lvm"],
      bridges: ["vmbr0"],
      restartsWhenMoved: false,
    });
    const node = (name: string, free: number, storages = ["local-lvm"]): DrainTarget => ({
      name,
      online: true,
      memoryFree: free * GiB,
      storages,
      bridges: ["vmbr0"],
    });
    const { moves, left } = placeDrain(
      [vm(100, 8), vm(101, 4), vm(102, 4), vm(103, 32)],
      [node("pve2", 16), node("pve3", 12), node("pve4", 64, [])],
    );
    assert.deepEqual(
      moves.map((m) => [m.guest.vmid, m.target]),
      [
        [100, "pve2"],
        [101, "pve3"],
        [102, "pve2"],
      ],
    );
    assert.deepEqual(
      left.map((l) => l.reason),
      [
        "fits on no node (pve2: 16 GiB memory free, it needs 32 GiB; pve3: 12 GiB memory free, it needs 32 GiB; pve4: no storage local-lvm)",
      ],
    );
  });
});
