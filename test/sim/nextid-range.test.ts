// GET /cluster/nextid searches datacenter.cfg's `next-id` range (API2/Cluster.pm): from
// `lower` (inclusive, default 100) to `upper` (exclusive, default 1,000,000), and says so
// when the range is full.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Harness, rejects } from "./guests-harness.js";

describe("/cluster/nextid and the datacenter next-id range", () => {
  it("answers the lowest free id inside the range", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 5000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 3 }),
        async (lower, width, taken) => {
          const h = new Harness();
          await h.call("PUT", "/cluster/options", { "next-id": `lower=${lower},upper=${lower + width + taken}` });
          for (let i = 0; i < taken; i++) await h.createVm(lower + i);
          assert.equal(await h.call("GET", "/cluster/nextid"), String(lower + taken));
        },
      ),
      { numRuns: 20 },
    );
  });

  it("fails when every id of the range is taken; only `upper` set keeps lower at 100", async () => {
    const h = new Harness();
    await h.call("PUT", "/cluster/options", { "next-id": "lower=500,upper=502" });
    await h.createVm(500);
    await h.createVm(501);
    await rejects(h.call("GET", "/cluster/nextid"), 500, "unable to get any free VMID in range [500, 502]");
    await h.call("PUT", "/cluster/options", { "next-id": "upper=101" });
    assert.equal(await h.call("GET", "/cluster/nextid"), "100");
  });
});
