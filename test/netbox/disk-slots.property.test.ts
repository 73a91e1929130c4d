// The slot of each NetBox virtual disk (sources/netbox/disk-slots.ts) over random histories of
// virtual disks added and deleted in NetBox, and syncs that apply (or hold back) the removals:
// no slot ever changes which virtual disk it holds, only a deleted virtual disk's slot is
// removed, and every virtual disk has exactly one slot. Plus the cases that must be errors.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { diskTagOf, type GuestDisks, placeDisks, type RecordDisk } from "../../src/sources/netbox/disk-slots.js";

const RULES = { candidates: Array.from({ length: 31 }, (_, i) => `scsi${i}`) };
const GIB = 2 ** 30;

type Op = { kind: "add"; gib: number } | { kind: "remove"; pick: number } | { kind: "sync"; allowDataLoss: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), gib: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant("remove" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("sync" as const), allowDataLoss: fc.boolean() }),
);

/** A guest in PVE: which virtual disk each slot was built from (what the tags say must match it), its tags. */
interface Guest {
  holds: Map<string, { id: number; sizeBytes: number }>;
  tags: string[];
}

const view = (g: Guest): GuestDisks => ({ vmid: 100, tags: g.tags, slots: new Map([...g.holds].map(([slot, d]) => [slot, d.sizeBytes])) });

/** One sync: place, check the invariants against the guest as it is, and apply (removals only with allowDataLoss). */
function sync(netbox: RecordDisk[], guest: Guest | undefined, allowDataLoss: boolean): Guest {
  const placement = placeDisks(netbox, RULES, guest && view(guest));
  assert.deepEqual(placement.errors, []);
  const ids = placement.slots.map((s) => netbox[s.disk]!.id);
  assert.deepEqual([...ids].sort(), netbox.map((d) => d.id).sort(), "every virtual disk has exactly one slot");
  assert.equal(new Set(placement.slots.map((s) => s.slot)).size, placement.slots.length, "one virtual disk per slot");
  const next: Guest = { holds: new Map(), tags: placement.tags };
  for (const s of placement.slots) {
    const disk = netbox[s.disk]!;
    const before = guest?.holds.get(s.slot);
    if (before !== undefined) assert.equal(disk.id, before.id, `${s.slot} keeps the virtual disk it holds`);
    next.holds.set(s.slot, { id: disk.id!, sizeBytes: disk.sizeBytes! });
  }
  const live = new Set(netbox.map((d) => d.id));
  for (const [slot, held] of guest?.holds ?? []) {
    if (next.holds.has(slot)) continue;
    assert.ok(!live.has(held.id), `${slot} is removed only because its virtual disk ${held.id} is gone`);
    if (!allowDataLoss) next.holds.set(slot, held);
  }
  for (const [slot, held] of next.holds)
    if (!placement.slots.some((s) => s.slot === slot))
      assert.ok(next.tags.includes(diskTagOf(held.id, slot)), `${slot} stays recorded while its removal waits`);
  return next;
}

describe("disk slots by identity", () => {
  test("over random add/remove histories no slot ever changes which NetBox virtual disk it holds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(op, { maxLength: 30 }), (initial, ops) => {
        let nextId = 1;
        const netbox: RecordDisk[] = [];
        const add = (gib: number) => {
          const id = nextId++;
          netbox.push({ id, label: `virtual disk \`d${id}\``, sizeBytes: gib * GIB });
        };
        for (let i = 0; i < initial; i++) add(i === 0 ? 32 : 100);
        let guest = sync(netbox, undefined, false);
        const slotOf = new Map([...guest.holds].map(([slot, d]) => [d.id, slot]));
        for (const o of ops) {
          if (o.kind === "add" && netbox.length < 20) add(o.gib);
          else if (o.kind === "remove" && netbox.length > 1) netbox.splice(o.pick % netbox.length, 1);
          else if (o.kind === "sync") {
            guest = sync(netbox, guest, o.allowDataLoss);
            for (const [slot, d] of guest.holds) {
              const first = slotOf.get(d.id) ?? slot;
              assert.equal(slot, first, `virtual disk ${d.id} never moves to another slot`);
              slotOf.set(d.id, first);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  const disks: RecordDisk[] = [
    { id: 41, label: "virtual disk `os`", sizeBytes: 32 * GIB },
    { id: 42, label: "virtual disk `data`", sizeBytes: 100 * GIB },
  ];

  test("a disk on the guest with no record is an error naming the slot and the candidates, never a resize or a delete", () => {
    const guest = {
      vmid: 100,
      tags: [diskTagOf(42, "scsi1")],
      slots: new Map([
        ["scsi0", 32 * GIB],
        ["scsi1", 100 * GIB],
        ["scsi2", 5 * GIB],
      ]),
    };
    const p = placeDisks(disks, RULES, guest);
    assert.deepEqual(p.slots, []);
    assert.match(p.errors.join("\n"), /scsi0 \(32 GiB\) holds a disk with no record.*virtual disk `os` \(id 41\)/);
    assert.match(p.errors.join("\n"), /scsi2 \(5 GiB\) holds a disk with no record/);
  });

  test("two records for one slot are an error naming both virtual disks", () => {
    const guest = { vmid: 100, tags: [diskTagOf(41, "scsi0"), diskTagOf(42, "scsi0")], slots: new Map([["scsi0", 32 * GIB]]) };
    assert.match(
      placeDisks(disks, RULES, guest).errors.join("\n"),
      /scsi0 is recorded as holding virtual disk `os` \(id 41\).* and virtual disk `data` \(id 42\)/,
    );
  });

  test("a container's rootfs whose virtual disk is gone is an error, not a removal", () => {
    const guest = {
      vmid: 200,
      tags: [diskTagOf(41, "rootfs"), diskTagOf(42, "mp0")],
      slots: new Map([
        ["rootfs", 32 * GIB],
        ["mp0", 100 * GIB],
      ]),
    };
    const p = placeDisks([disks[1]!], { candidates: ["rootfs", "mp0", "mp1"], fixed: "rootfs" }, guest);
    assert.match(
      p.errors.join("\n"),
      /rootfs holds NetBox virtual disk id 41, which is gone from NetBox; a container cannot lose its rootfs/,
    );
  });

  test("a guest without records is adopted by position only with every size exact and no other disk", () => {
    const exact = {
      vmid: 100,
      tags: [],
      slots: new Map([
        ["scsi0", 32 * GIB],
        ["scsi1", 100 * GIB],
      ]),
    };
    assert.deepEqual(placeDisks(disks, RULES, exact).tags, [diskTagOf(41, "scsi0"), diskTagOf(42, "scsi1")]);
    const extra = { ...exact, slots: new Map([...exact.slots, ["scsi2", GIB]]) };
    assert.equal(placeDisks(disks, RULES, extra).errors.length, 1);
    const grown = {
      ...exact,
      slots: new Map([
        ["scsi0", 32 * GIB],
        ["scsi1", 120 * GIB],
      ]),
    };
    assert.deepEqual(placeDisks(disks, RULES, grown).slots, []);
  });
});
