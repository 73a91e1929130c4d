import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allEndpoints } from "../../src/schema/index.js";
import type { ParamSchema } from "../../src/schema/types.js";
import { loadFormats } from "../../src/schema/load.js";
import { PerlRegexError, perlRegexToJs } from "../../scripts/schema-gen/perl-regex.js";

/** PVE anchors every pattern: $value =~ m/^$pattern$/. */
function accepts(perl: string, value: string): boolean {
  return new RegExp(`^(?:${perlRegexToJs(perl)})$`).test(value);
}

describe("Perl regex conversion", () => {
  it("turns (?^:...) into a plain group", () => {
    assert.equal(perlRegexToJs("(?^:\\d+(?:;\\d+)*)"), "(?:\\d+(?:;\\d+)*)");
    assert.ok(accepts("(?^:\\d+(?:;\\d+)*)", "10;20"));
    assert.ok(!accepts("(?^:\\d+(?:;\\d+)*)", "10;"));
  });

  it("makes (?^i:...) case-insensitive inside the group only", () => {
    const perl = "(?:(?^i:[a-z0-9_][a-z0-9_\\-\\+\\.]*):[0-9a-fA-F]{6}(?::[0-9a-fA-F]{6})?)";
    assert.ok(accepts(perl, "Prod:FF0000"));
    assert.ok(accepts(perl, "prod:ff0000:00ff00"));
    assert.ok(!accepts(perl, "prod:gg0000"));
    assert.ok(accepts("(?^i:abc)x", "ABCx"));
    assert.ok(!accepts("(?^i:abc)x", "ABCX"));
  });

  it("reads {,n} as 0..n like Perl 5.34+ (product/vendor of scsi disks)", () => {
    assert.ok(accepts("[A-Za-z0-9\\-_\\s]{,8}", "QEMU"));
    assert.ok(accepts("[A-Za-z0-9\\-_\\s]{,8}", ""));
    assert.ok(!accepts("[A-Za-z0-9\\-_\\s]{,8}", "TOO-LONG-VENDOR"));
  });

  it("keeps atomic groups atomic", () => {
    const perl = "(?^:^((?>[+-]?[\\w\\-\\._=]+,?)+)$)";
    assert.ok(accepts(perl, "+nesting=1,-keyctl"));
    assert.ok(!accepts(perl, "a b"));
    // An atomic group that must give back characters fails, as in Perl.
    assert.ok(!accepts("(?>a+)a", "aaa"));
    assert.ok(accepts("(?:a+)a", "aaa"));
  });

  it("refuses constructs it cannot translate faithfully", () => {
    assert.throws(() => perlRegexToJs("\\Afoo\\z"), PerlRegexError);
    assert.throws(() => perlRegexToJs("(?^x: a b )"), PerlRegexError);
    assert.throws(() => perlRegexToJs("(?<name>a)"), PerlRegexError);
  });

  it("left every pattern of the generated schema compilable in JavaScript", () => {
    const patterns: string[] = [];
    const visit = (schema: ParamSchema | undefined): void => {
      if (!schema) return;
      if (schema.pattern !== undefined) patterns.push(schema.pattern);
      if (typeof schema.format === "object") Object.values(schema.format).forEach(visit);
      Object.values(schema.properties ?? {}).forEach(visit);
      visit(schema.items);
      if (typeof schema.additionalProperties === "object") visit(schema.additionalProperties);
      schema.oneOf?.forEach(visit);
    };
    for (const endpoint of allEndpoints()) {
      Object.values(endpoint.params).forEach(visit);
      visit(endpoint.returns);
    }
    for (const sub of Object.values(loadFormats().propertyStrings)) Object.values(sub).forEach(visit);
    assert.ok(patterns.length > 250, `only ${patterns.length} patterns found`);
    for (const pattern of patterns) {
      assert.ok(!pattern.includes("(?^"), pattern);
      assert.doesNotThrow(() => new RegExp(`^(?:${pattern})$`), pattern);
    }
  });
});
