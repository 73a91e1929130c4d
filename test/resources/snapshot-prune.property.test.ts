import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { snapshotsToPrune } from "../../src/resources/snapshot-prune.js";

const entry = fc.record({
  name: fc.stringMatching(/^[a-c][a-z0-9-]{0,6}$/),
  snaptime: fc.integer({ min: 1, max: 50 }),
});
const entries = fc.uniqueArray(entry, { selector: (e) => e.name, maxLength: 15 });

describe("snapshot retention", () => {
  it("keeps exactly the newest N with the prefix and never picks any other snapshot", () => {
    fc.assert(
      fc.property(entries, fc.integer({ min: 0, max: 6 }), fc.constantFrom("a", "ab", "b-", ""), (list, keep, prefix) => {
        const pruned = snapshotsToPrune(list, { keep, prefix });
        const withPrefix = list.filter((e) => e.name.startsWith(prefix));
        assert.ok(
          pruned.every((p) => p.name.startsWith(prefix)),
          "only prefixed snapshots are deleted",
        );
        assert.equal(pruned.length, Math.max(0, withPrefix.length - keep));
        const kept = withPrefix.filter((e) => !pruned.includes(e));
        for (const k of kept) for (const p of pruned) assert.ok((p.snaptime ?? 0) <= (k.snaptime ?? 0), "a kept one is never older");
      }),
    );
  });

  it("never deletes the live state `current`", () => {
    assert.deepEqual(snapshotsToPrune([{ name: "current" }, { name: "cx", snaptime: 1 }], { keep: 0, prefix: "c" }), [
      { name: "cx", snaptime: 1 },
    ]);
  });
});
