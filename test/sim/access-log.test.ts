import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AccessLog } from "../../src/sim/access-log.js";

describe("access log", () => {
  it("counts every request and keeps the last 20,000 one by one", () => {
    const log = new AccessLog();
    for (let i = 0; i < 25_500; i++) {
      log.record({
        time: i,
        method: "GET",
        path: `/nodes/pve1/qemu/${i}`,
        endpoint: "/nodes/{node}/qemu/{vmid}",
        status: 200,
        durationMs: 1,
      });
    }
    const summary = log.summary();
    assert.equal(summary.total, 25_500);
    assert.equal(summary.byEndpoint["GET /nodes/{node}/qemu/{vmid}"], 25_500);
    assert.equal(summary.entries.length, 20_000);
    assert.equal(summary.entries[0]?.time, 5_500, "the oldest kept entry");
    assert.equal(summary.entries.at(-1)?.time, 25_499, "the newest entry");
  });
});
