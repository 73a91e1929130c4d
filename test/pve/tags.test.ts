import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normaliseTags, parseTags, printTags, PveFormatError, sameTags, splitList } from "../../src/pve/index.js";

describe("tags", () => {
  it("splits on ; , and whitespace like PVE's split_list", () => {
    assert.deepEqual(parseTags("foo bar"), ["foo", "bar"]);
    assert.deepEqual(parseTags("a;b,c  d;;"), ["a", "b", "c", "d"]);
    assert.deepEqual(parseTags(""), []);
    assert.deepEqual(parseTags(["web;prod", "db"]), ["web", "prod", "db"]);
    assert.deepEqual(splitList("x\0y z"), ["x", "y z"]);
  });

  it("accepts PVE's tag characters and refuses others with PVE's message", () => {
    assert.deepEqual(parseTags("k8s_node-1+x.y"), ["k8s_node-1+x.y"]);
    for (const bad of ["-lead", ".dot", "ä", "a/b", "x=y"]) {
      assert.throws(
        () => parseTags(bad),
        (err: unknown) => {
          assert.ok(err instanceof PveFormatError);
          assert.equal(err.pveMessage, "invalid characters in tag");
          return true;
        },
      );
    }
  });

  it("stores tags ;-joined, de-duplicated (case-insensitive by default) and sorted", () => {
    assert.equal(printTags(normaliseTags("prod web Prod db web")), "db;prod;web");
    assert.deepEqual(normaliseTags("b A a", { caseSensitive: true }), ["A", "a", "b"]);
    assert.deepEqual(normaliseTags("zeta alpha zeta", { ordering: "config" }), ["zeta", "alpha"]);
  });

  it("compares tag lists as sets for diffing", () => {
    assert.equal(sameTags("web;prod", "prod,web web"), true);
    assert.equal(sameTags("web;prod", "web"), false);
    assert.equal(sameTags("Web", "web"), true);
    assert.equal(sameTags("Web", "web", { caseSensitive: true }), false);
  });
});
