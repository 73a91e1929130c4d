import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { snapshotNameProblem } from "../../src/resources/snapshot-name.js";

describe("snapshot names", () => {
  it("accepts names PVE accepts", () => {
    for (const n of ["ab", "auto-2026_12", "B1", "x".repeat(40)]) assert.equal(snapshotNameProblem(n), undefined, n);
  });
  it("refuses each kind of bad name with the reason", () => {
    assert.match(snapshotNameProblem("1abc") ?? "", /start with a letter/);
    assert.match(snapshotNameProblem("a") ?? "", /at least 2/);
    assert.match(snapshotNameProblem("a.b") ?? "", /only letters/);
    assert.match(snapshotNameProblem("x".repeat(41)) ?? "", /longer than 40/);
    assert.match(snapshotNameProblem("current") ?? "", /reserved/);
    assert.match(snapshotNameProblem("") ?? "", /empty/);
  });
});
