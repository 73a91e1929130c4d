// A command over many guests with nothing selected is refused before any connection is made:
// "no selection" never means "every guest", and the operator learns what to give even
// without a cluster configured (pvectl() runs the CLI with no PROXMOX_* environment). `backup status` (read-only) reads the whole cluster instead.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pvectl } from "../support/cli.js";

describe("commands over many guests without a selection", () => {
  for (const args of [
    ["snapshot", "create", "before-upgrade"],
    ["snapshot", "delete", "old"],
    ["backup", "run", "--storage", "local"],
  ]) {
    it(`pvectl ${args.join(" ")} says what to select, before connecting`, async () => {
      const result = await pvectl(args);
      assert.equal(result.code, 1);
      assert.match(
        result.stderr,
        /^error: no guests selected\n {2}name them: -f SPEC, --vmid N, .* --all for every guest of the cluster\n$/,
      );
    });
  }

  it("backup status reads the whole cluster instead (here: fails on the missing connection)", async () => {
    const result = await pvectl(["backup", "status"]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /PROXMOX_HOST is not set/);
  });
});
