// A token secret file read back (#29): a whole PVE token secret (a UUID) is kept whatever the
// whitespace around it; nothing, blanks or the start of a secret (a write cut off) mean the
// secret is lost; anything else is not pvectl's to judge.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { secretFileHolds } from "../../src/pve/index.js";

const blank = fc.stringMatching(/^[ \t\r\n]{0,4}$/);

describe("secretFileHolds", () => {
  it("a whole UUID, with any whitespace around it, is a secret", () => {
    fc.assert(fc.property(fc.uuid(), blank, blank, (uuid, lead, trail) => secretFileHolds(`${lead}${uuid}${trail}`) === "secret"));
  });

  it("blanks, or any strict start of a UUID, hold nothing", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.nat(35), blank, (uuid, cut, trail) => secretFileHolds(`${uuid.slice(0, cut)}${trail}`) === "nothing"),
    );
  });

  it("a UUID with anything else in it is something else", () => {
    const other = fc.string({ minLength: 1, maxLength: 3 }).filter((s) => s.trim() !== "" && !/^[0-9a-fA-F-]+$/.test(s.trim()));
    fc.assert(
      fc.property(
        fc.uuid(),
        other,
        fc.nat(36),
        (uuid, extra, at) => secretFileHolds(`${uuid.slice(0, at)}${extra}${uuid.slice(at)}`) === "other",
      ),
    );
    assert.equal(secretFileHolds(`${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}0`), "other", "longer than a UUID");
  });
});
