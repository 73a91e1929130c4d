// The placement record is pvectl's own tag, like the ownership tag: never compared with the
// spec's `tags:`, kept when they change, never imported; and a guest tied to its node is not
// moved (a container's bind mount).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { plannedParams } from "../../src/plan/resolve-call.js";
import { planUpdateCt } from "../../src/resources/lxc/diff.js";
import { liveToSpecCt } from "../../src/resources/lxc/to-spec.js";
import { placementRecord, userTags, withPlacementRecord } from "../../src/resources/placement-record.js";
import { ctConfig, desiredCt, liveCt, power } from "./lxc/fixture.js";

const recorded = () => liveCt("stopped", { ...ctConfig(), tags: "pvectl;pvectl-node.pve1;web" });

describe("the placement record tag", () => {
  it("is read back as the recorded node; several that disagree count as none", () => {
    assert.deepEqual(placementRecord(["pvectl", "pvectl-node.pve1", "web"]), { present: true, node: "pve1" });
    assert.deepEqual(placementRecord(["pvectl-node.pve1", "pvectl-node.pve2"]), { present: true });
    assert.deepEqual(placementRecord(["web"]), { present: false });
    assert.deepEqual(withPlacementRecord(["pvectl-node.pve1", "pvectl-node.pve2", "web"], "pve3"), ["web", "pvectl-node.pve3"]);
    assert.deepEqual(userTags(["pvectl", "pvectl-node.pve1", "web"]), ["web"]);
  });

  it("is not one of the spec's tags: no change for it, and kept when the spec's tags change", () => {
    assert.deepEqual(planUpdateCt(desiredCt(), recorded(), power).steps, []);
    const retagged = planUpdateCt({ ...desiredCt(), tags: ["db"] }, recorded(), power);
    assert.deepEqual(
      retagged.steps.map((s) => plannedParams(s.calls[0]!).tags),
      ["db;pvectl;pvectl-node.pve1"],
    );
  });

  it("is never imported into a spec", () => {
    assert.deepEqual(liveToSpecCt(recorded()).tags, ["web"]);
  });

  it("a container with a bind mount cannot move: a plan error naming the mount point", () => {
    const planned = planUpdateCt({ ...desiredCt(), node: "pve2" }, recorded(), power);
    assert.deepEqual(planned.steps, []);
    assert.match(planned.errors.join("\n"), /web1 cannot move from pve1 to pve2: mp1 mounts the host's \/srv\/shared/);
  });
});
