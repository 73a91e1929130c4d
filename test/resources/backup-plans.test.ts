import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
// Invariants of the backup plans, whatever the input: a prune deletes exactly the archives PVE
// marked `remove` (never a protected or kept one), each as a data-loss-risk step naming it; a
// backup step is service-impact exactly when it pauses or stops a running guest.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { planPruneGuest } from "../../src/resources/backup/prune.js";
import { BACKUP_MODES, planBackups } from "../../src/resources/backup/run.js";

const guest = { vmid: 101, type: "qemu" as const, node: "pve1", status: "running" as const, name: "web", template: false };

const archiveArb = fc.record({
  n: fc.integer({ min: 0, max: 10_000 }),
  mark: fc.constantFrom("keep", "remove", "protected", "renamed"),
  ctime: fc.integer({ min: 1_600_000_000, max: 1_800_000_000 }),
});

describe("backup plans", () => {
  it("a prune deletes exactly the archives marked remove, each named in a data-loss-risk step, and says which it keeps protected", () => {
    fc.assert(
      fc.property(fc.uniqueArray(archiveArb, { selector: (a) => a.n, maxLength: 12 }), (listed) => {
        const archives = listed.map((a) => ({
          volid: `local:backup/vzdump-qemu-101-${a.n}.vma.zst`,
          vmid: 101,
          node: "pve1",
          storage: "local",
          mark: a.mark,
          ctime: a.ctime,
        }));
        const plan = planPruneGuest(guest, archives, { "keep-last": 2 });
        const deleted = plan.steps.flatMap((s) => s.deletesVolumes ?? []);
        assert.deepEqual(
          [...deleted].sort(),
          archives
            .filter((a) => a.mark === "remove")
            .map((a) => a.volid)
            .sort(),
        );
        assert.ok(plan.steps.every((s) => s.severity === "data-loss-risk" && s.calls.length === 1 && s.calls[0]!.method === "DELETE"));
        assert.ok(
          plan.steps.every((s) => plannedPath(s.calls[0]!).endsWith(encodeURIComponent(s.deletesVolumes![0]!))),
          "each step deletes the archive it names",
        );
        for (const kept of archives.filter((a) => a.mark === "protected"))
          assert.ok(plan.warnings.some((w) => w.includes(kept.volid) && w.includes("protected")));
      }),
    );
  });

  it("a backup is service-impact only when suspend or stop mode meets a running guest", () => {
    fc.assert(
      fc.property(fc.constantFrom(...BACKUP_MODES), fc.constantFrom("running" as const, "stopped" as const), (mode, status) => {
        const storages = [{ storage: "local", node: "pve1", content: ["backup", "iso"], available: true, shared: false }];
        const { guests, problems } = planBackups([{ ...guest, status }], storages, { storage: "local", mode, compress: "zstd" });
        assert.deepEqual(problems, []);
        const step = guests[0]!.steps[0]!;
        assert.equal(step.severity, mode !== "snapshot" && status === "running" ? "service-impact" : "configuration");
        assert.deepEqual(plannedParams(step.calls[0]!), { vmid: 101, storage: "local", mode, compress: "zstd" });
      }),
    );
  });
});
