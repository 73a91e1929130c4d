import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatResize, formatSize, parseResize, parseSize, parseSizeBytes, PveFormatError, tryParseSize } from "../../src/pve/index.js";

describe("parseSize", () => {
  it("reads binary units exactly", () => {
    assert.equal(parseSize("32G"), 32 * 1024 ** 3);
    assert.equal(parseSize("512M"), 512 * 1024 ** 2);
    assert.equal(parseSize("1T"), 1024 ** 4);
    assert.equal(parseSize("128K"), 131072);
  });

  it("reads a bare number as bytes, as PVE's disk-size does", () => {
    assert.equal(parseSize("4096"), 4096);
    assert.equal(parseSize("0"), 0);
  });

  it("keeps fractional sizes exact and drops fractions of a byte like PVE's int()", () => {
    assert.equal(parseSize("1.5G"), 1610612736);
    assert.equal(parseSize("0.1K"), 102); // 102.4 bytes
    assert.equal(parseSizeBytes("1.1G"), 1181116006n);
  });

  it("handles petabyte-scale sizes without losing precision", () => {
    assert.equal(parseSize("1024T"), 2 ** 50);
    assert.equal(parseSizeBytes("8192T"), 2n ** 53n);
    assert.equal(parseSizeBytes("1048576T"), 2n ** 60n);
  });

  it("refuses sizes that do not fit a safe integer instead of rounding them", () => {
    assert.throws(() => parseSize("8192T"), /too large/);
  });

  it("refuses other spellings with PVE's message", () => {
    for (const bad of ["32GB", "32g", "-1G", "G", "", " 32G", "1e3", "+10G"]) {
      assert.throws(
        () => parseSize(bad),
        (err: unknown) => {
          assert.ok(err instanceof PveFormatError);
          assert.equal(err.pveMessage, `value does not look like a valid disk size: ${bad}`);
          assert.match(err.userMessage(), /unit K, M, G or T/);
          return true;
        },
      );
    }
    assert.equal(tryParseSize("lots"), undefined);
  });
});

describe("formatSize", () => {
  it("uses the largest unit that divides exactly", () => {
    assert.equal(formatSize(32 * 1024 ** 3), "32G");
    assert.equal(formatSize(1536 * 1024 ** 2), "1536M");
    assert.equal(formatSize(4 * 1024 ** 4), "4T");
    assert.equal(formatSize(131072), "128K");
    assert.equal(formatSize(1000), "1000");
    assert.equal(formatSize(1025), "1025");
    assert.equal(formatSize(2n ** 60n), "1048576T");
  });

  it("prints zero as 0T, exactly as PVE's format_size does", () => {
    assert.equal(formatSize(0), "0T");
  });

  it("round-trips sizes seen in real configs", () => {
    for (const text of ["4G", "32G", "128K", "528K", "4M", "1M", "707456K", "4985424K", "104858K"]) {
      assert.equal(formatSize(parseSize(text)), text);
    }
  });

  it("refuses negative and fractional byte counts", () => {
    assert.throws(() => formatSize(-1), PveFormatError);
    assert.throws(() => formatSize(1.5), PveFormatError);
  });
});

describe("parseResize", () => {
  it("reads growth and absolute sizes", () => {
    assert.deepEqual(parseResize("+10G"), { relative: true, bytes: 10 * 1024 ** 3 });
    assert.deepEqual(parseResize("64G"), { relative: false, bytes: 64 * 1024 ** 3 });
    assert.deepEqual(parseResize("+0"), { relative: true, bytes: 0 });
    assert.deepEqual(parseResize("1073741824"), { relative: false, bytes: 1073741824 });
  });

  it("prints what PVE's resize accepts", () => {
    assert.equal(formatResize({ relative: true, bytes: 10 * 1024 ** 3 }), "+10G");
    assert.equal(formatResize(parseResize("+512M")), "+512M");
  });

  it("refuses shrink syntax and junk with the resize pattern message", () => {
    for (const bad of ["-10G", "+", "++1G", "10 G"]) {
      assert.throws(() => parseResize(bad), /value does not match the regex pattern/);
    }
  });
});
