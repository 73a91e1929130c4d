import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatUpid, isUpid, parseUpid, PveFormatError } from "../../src/pve/index.js";

describe("UPID", () => {
  it("parses PVE's task id", () => {
    assert.deepEqual(parseUpid("UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam:"), {
      node: "pve",
      pid: 0xabcde,
      pstart: 0x98f0a1,
      starttime: 0x66ab12cd,
      type: "qmstart",
      id: "100",
      user: "root@pam",
    });
  });

  it("accepts an empty id, a 9-digit pstart and token users", () => {
    const upid = parseUpid("UPID:node-2:00001234:1ABCDEF01:66AB12CD:vzdump::automation@pve!ci:");
    assert.equal(upid.id, "");
    assert.equal(upid.pstart, 0x1abcdef01);
    assert.equal(upid.user, "automation@pve!ci");
  });

  it("round-trips with uppercase 8-digit hex and the trailing colon", () => {
    const text = "UPID:pve1:0000A1B2:00C3D4E5:6756F00D:qmcreate:101:root@pam:";
    assert.equal(formatUpid(parseUpid(text)), text);
    assert.equal(
      formatUpid({ node: "pve", pid: 255, pstart: 16, starttime: 1700000000, type: "qmstop", id: "100", user: "root@pam" }),
      "UPID:pve:000000FF:00000010:6553F100:qmstop:100:root@pam:",
    );
  });

  it("refuses malformed UPIDs with PVE's message and a hint", () => {
    for (const bad of [
      "UPID:pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam", // no trailing colon
      "UPID:pve:ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam:", // short pid
      "pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam:",
      "UPID:-pve:000ABCDE:0098F0A1:66AB12CD:qmstart:100:root@pam:",
      "",
    ]) {
      assert.equal(isUpid(bad), false);
      assert.throws(
        () => parseUpid(bad),
        (err: unknown) => {
          assert.ok(err instanceof PveFormatError);
          assert.equal(err.pveMessage, "unable to parse worker upid");
          assert.match(err.userMessage(), /^invalid UPID '.*': unable to parse worker upid\. A UPID looks like UPID:pve:/);
          return true;
        },
      );
    }
  });

  it("refuses to format parts that could not be read back", () => {
    const base = { node: "pve", pid: 1, pstart: 1, starttime: 1, type: "qmstart", id: "100", user: "root@pam" };
    assert.throws(() => formatUpid({ ...base, id: "a:b" }), PveFormatError);
    assert.throws(() => formatUpid({ ...base, pid: -1 }), /pid must be a non-negative integer/);
  });
});
