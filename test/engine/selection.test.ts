import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { GuestSummary } from "../../src/engine/cluster.js";
import { SelectionError, selectGuests } from "../../src/engine/selection.js";

const guestArb: fc.Arbitrary<GuestSummary> = fc
  .record({
    vmid: fc.integer({ min: 100, max: 140 }),
    type: fc.constantFrom("qemu" as const, "lxc" as const),
    node: fc.constantFrom("pve1", "pve2", "pve3"),
    status: fc.constantFrom("running" as const, "stopped" as const),
    name: fc.constantFrom("web", "db", "cache"),
    tags: fc.subarray(["pvectl", "prod", "web"]),
    template: fc.boolean(),
    pool: fc.constantFrom(undefined, "team-a", "team-b"),
  })
  .map(({ pool, ...g }) => (pool === undefined ? g : { ...g, pool }));

const clusterArb = fc.uniqueArray(guestArb, { selector: (g) => g.vmid, maxLength: 20 });

describe("guest selection (snapshot and backup commands)", () => {
  it("acts only on owned guests unless --include-foreign, and lists every other selected guest as skipped", () => {
    fc.assert(
      fc.property(clusterArb, fc.boolean(), fc.subarray(["prod", "web"]), (cluster, includeForeign, tags) => {
        const selection = selectGuests(cluster, { all: true, tags, includeForeign });
        const selected = cluster.filter((g) => tags.every((t) => g.tags.includes(t)));
        assert.deepEqual(
          [...selection.guests, ...selection.skipped.map((s) => s.guest)].map((g) => g.vmid).sort(),
          selected.map((g) => g.vmid).sort(),
          "every guest the filters match is either acted on or listed as skipped",
        );
        if (!includeForeign)
          assert.ok(
            selection.guests.every((g) => g.tags.includes("pvectl")),
            "no foreign guest without --include-foreign",
          );
      }),
    );
  });

  it("narrows explicit vmids by node, pool and tag, and reports vmids the cluster lacks", () => {
    fc.assert(
      fc.property(
        clusterArb,
        fc.array(fc.integer({ min: 100, max: 145 }), { maxLength: 6 }),
        fc.constantFrom("pve1", "pve2"),
        (cluster, vmids, node) => {
          fc.pre(vmids.length > 0);
          const selection = selectGuests(cluster, { vmids, nodes: [node], includeForeign: true });
          for (const guest of selection.guests) {
            assert.ok(vmids.includes(guest.vmid));
            assert.equal(guest.node, node);
          }
          const missing = [...new Set(vmids.filter((v) => !cluster.some((g) => g.vmid === v)))];
          assert.deepEqual(
            selection.notFound,
            missing.map((v) => `vmid ${v}`),
          );
        },
      ),
    );
  });

  it("finds a spec's guests as plan does, honours their adopt, and says which are not created yet", () => {
    const cluster: GuestSummary[] = [
      { vmid: 101, type: "qemu", node: "pve1", status: "running", name: "web", tags: ["pvectl"], template: false },
      { vmid: 102, type: "qemu", node: "pve1", status: "running", name: "legacy", tags: [], template: false },
      { vmid: 103, type: "qemu", node: "pve2", status: "stopped", name: "other", tags: [], template: false },
    ];
    const selection = selectGuests(cluster, {
      spec: [
        { name: "web", kind: "qemu" },
        { name: "legacy", vmid: 102, kind: "qemu", adopt: true },
        { name: "new-one", kind: "qemu" },
        { name: "other", vmid: 103, kind: "qemu" },
      ],
    });
    assert.deepEqual(
      selection.guests.map((g) => g.vmid),
      [101, 102],
    );
    assert.deepEqual(
      selection.skipped.map((s) => s.guest.vmid),
      [103],
    );
    assert.match(selection.skipped[0]!.reason, /--include-foreign/);
    assert.deepEqual(selection.notFound, ["new-one (in the spec, not created yet)"]);
  });

  it("refuses a selection that names nothing instead of taking every guest", () => {
    assert.throws(
      () => selectGuests([], {}),
      (err: unknown) => err instanceof SelectionError && /--all/.test(err.hint),
    );
    assert.throws(() => selectGuests([], { tags: [], vmids: [] }), SelectionError);
  });

  it("leaves templates out when the operation cannot act on them, saying so", () => {
    const cluster: GuestSummary[] = [
      { vmid: 900, type: "qemu", node: "pve1", status: "stopped", name: "tpl", tags: ["pvectl"], template: true },
    ];
    const selection = selectGuests(cluster, { all: true, excludeTemplates: true });
    assert.equal(selection.guests.length, 0);
    assert.match(selection.skipped[0]!.reason, /template/);
  });
});
