// The one error base: every error meant for a person is a PvectlError, says what to do next
// and serialises to its kind and words only, never to fields that may carry a secret.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PveError } from "../../src/api/index.js";
import { NetboxError } from "../../src/netbox/errors.js";
import { PveFormatError } from "../../src/pve/errors.js";
import { InventoryError } from "../../src/inventory/errors.js";
import { messageAndHint, PvectlError, userMessageOf } from "../../src/util/errors.js";

const SECRET = "5f0c6a3e-1d2b-4c8e-9a7f-0b1c2d3e4f50";

describe("PvectlError", () => {
  it("serialises to its kind and the words for a person, never to its fields", () => {
    const netbox = new NetboxError({
      status: 409,
      method: "POST",
      path: "/api/users/tokens/",
      body: { detail: "Token exists.", key: SECRET },
    });
    const task = new PveError({
      kind: "task",
      pveMessage: "command failed",
      task: { upid: "UPID:pve:1:2:3:qmcreate:100:root@pam:", exitstatus: "command failed", logTail: [`cipassword=${SECRET}`] },
      message: "task qmcreate 100 on node pve failed: command failed",
    });
    for (const err of [netbox, task]) {
      const json = JSON.stringify(err);
      assert.ok(!json.includes(SECRET), json);
      assert.ok(
        Object.keys(JSON.parse(json)).every((k) => ["kind", "message", "hint"].includes(k)),
        json,
      );
    }
    // No advice: no hint at all (never `hint: null`).
    assert.deepEqual(JSON.parse(JSON.stringify(task)), { kind: "task", message: "task qmcreate 100 on node pve failed: command failed" });
    // The advice NetBox errors end with is the hint, not part of the message.
    assert.deepEqual(JSON.parse(JSON.stringify(netbox)), {
      kind: "netbox",
      message: "NetBox POST /api/users/tokens/ conflicts with NetBox's current state (409): Token exists.",
      hint: "Resolve the conflict named above (free space, dependent objects) and run again.",
    });
  });

  it("puts what to do next on the line below the message, and in the JSON's hint", () => {
    const err = new InventoryError("no host named 'web9' in the inventory", "run `pvectl inventory --list` to see the host names");
    assert.ok(err instanceof PvectlError);
    assert.equal(err.exitCode, 1);
    assert.deepEqual(err.toJSON(), {
      kind: "inventory",
      message: "no host named 'web9' in the inventory",
      hint: "run `pvectl inventory --list` to see the host names",
    });
    const format = new PveFormatError("disk size", "12Q", "unable to parse size", "Use a number with K, M, G or T, e.g. 32G.");
    assert.deepEqual(format.toJSON(), {
      kind: "error",
      message: "invalid disk size '12Q': unable to parse size.",
      hint: "Use a number with K, M, G or T, e.g. 32G.",
    });
    assert.equal(userMessageOf(format), "invalid disk size '12Q': unable to parse size. Use a number with K, M, G or T, e.g. 32G.");
    assert.equal(userMessageOf(new Error("plain")), "plain");
    assert.equal(userMessageOf("thrown text"), "thrown text");
  });

  it("splits a text into its first line and the unindented rest", () => {
    assert.deepEqual(messageAndHint("error: the spec is invalid:\n  a.yaml:1:1: bad\n  a.yaml:2:1: worse\n"), {
      message: "the spec is invalid:",
      hint: "a.yaml:1:1: bad\na.yaml:2:1: worse",
    });
    assert.deepEqual(messageAndHint("one line"), { message: "one line" });
  });
});
