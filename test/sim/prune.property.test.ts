// Invariants of backup retention (pve-storage's prune_mark_backup_group) over any set of backups
// and keep options: every backup gets exactly one mark, protected ones stay protected, the
// newest unprotected backup of a guest is always kept when anything is, keep-all or no positive
// option removes nothing, and keep-last=N (alone) keeps exactly the N newest of each guest.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type KeepOptions, markBackups, type PruneEntry } from "../../src/sim/cluster/prune.js";

const entry: fc.Arbitrary<PruneEntry> = fc
  .record({
    volid: fc.string(),
    type: fc.constantFrom("qemu", "lxc"),
    vmid: fc.integer({ min: 100, max: 102 }),
    // about three years of distinct seconds, so hourly..yearly periods all matter
    ctime: fc.integer({ min: 1_700_000_000, max: 1_800_000_000 }),
    protected: fc.boolean(),
  })
  .map(({ protected: p, ...e }) => ({ ...e, ...(p ? { mark: "protected" as const } : {}) }));

const entries = fc.uniqueArray(entry, { selector: (e) => e.ctime, maxLength: 40 });
const count = fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined });
const keep: fc.Arbitrary<KeepOptions> = fc
  .record({
    "keep-last": count,
    "keep-hourly": count,
    "keep-daily": count,
    "keep-weekly": count,
    "keep-monthly": count,
    "keep-yearly": count,
  })
  .map((k) => Object.fromEntries(Object.entries(k).filter(([, v]) => v !== undefined)) as KeepOptions);

const clone = (list: PruneEntry[]) => list.map((e) => ({ ...e }));
const groupOf = (e: PruneEntry) => `${e.type}/${e.vmid}`;

describe("backup retention marks", () => {
  it("marks every backup once, keeps protected ones, keeps each guest's newest when it keeps any", () => {
    fc.assert(
      fc.property(entries, keep, (list, options) => {
        const before = clone(list);
        const marked = markBackups(clone(list), options);
        for (const [i, e] of marked.entries()) {
          assert.ok(["keep", "remove", "protected"].includes(String(e.mark)));
          assert.equal(e.mark === "protected", before[i]?.mark === "protected");
        }
        for (const group of new Set(marked.map(groupOf))) {
          const mine = marked.filter((e) => groupOf(e) === group && e.mark !== "protected");
          if (!mine.some((e) => e.mark === "keep")) continue;
          const newest = mine.reduce((a, b) => (b.ctime > a.ctime ? b : a));
          assert.equal(newest.mark, "keep");
        }
      }),
    );
  });

  it("keep-all=1 or no positive option removes nothing", () => {
    fc.assert(
      fc.property(entries, keep, fc.boolean(), (list, options, all) => {
        const zeroed = Object.fromEntries(Object.keys(options).map((k) => [k, 0])) as KeepOptions;
        const marked = markBackups(clone(list), all ? { ...options, "keep-all": 1 } : zeroed);
        assert.ok(marked.every((e) => e.mark !== "remove"));
      }),
    );
  });

  it("keep-last=N alone keeps exactly the N newest unprotected backups of each guest", () => {
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 6 }), (list, n) => {
        const marked = markBackups(clone(list), { "keep-last": n });
        for (const group of new Set(marked.map(groupOf))) {
          const mine = marked.filter((e) => groupOf(e) === group && e.mark !== "protected").sort((a, b) => b.ctime - a.ctime);
          assert.deepEqual(
            mine.map((e) => e.mark),
            mine.map((_, i) => (i < n ? "keep" : "remove")),
          );
        }
      }),
    );
  });
});
