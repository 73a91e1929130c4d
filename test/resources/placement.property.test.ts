// The R/S/L decision (resources/placement.ts) and what a plan makes of it, for random records,
// spec nodes, live nodes, HA states and power: pvectl moves a guest only when its spec changed
// (or --placement spec) and never one HA manages; a guest someone else moved is never moved back;
// the migration comes right after the opening steps, every later step names the target, and the
// record follows it; a guest HA manages gets no power call at all.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { plannedPath } from "../../src/plan/resolve-call.js";
import { decidePlacement } from "../../src/resources/placement.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";

const SEED = 3131;
const NODES = ["pve1", "pve2", "pve3"] as const;
const node = fc.constantFrom(...NODES);

const facts = fc.record({
  live: node,
  spec: node,
  record: fc.option(node, { nil: undefined }),
  extraRecord: fc.boolean(),
  haState: fc.constantFrom(undefined, "started", "stopped", "ignored"),
  followSpec: fc.boolean(),
  running: fc.boolean(),
  power: fc.constantFrom(undefined, "running" as const, "stopped" as const),
  onboot: fc.boolean(),
});
type Facts = typeof facts extends fc.Arbitrary<infer T> ? T : never;

function recordTags(f: Facts): string[] {
  if (f.record === undefined) return [];
  const other = NODES.find((n) => n !== f.record)!;
  return f.extraRecord ? [`pvectl-node.${f.record}`, `pvectl-node.${other}`] : [`pvectl-node.${f.record}`];
}

function plan(f: Facts) {
  const live = liveVmFromConfig(
    {
      vmid: 100,
      node: f.live,
      status: f.running ? "running" : "stopped",
      ...(f.haState !== undefined ? { ha: { sid: "vm:100", state: f.haState } } : {}),
    },
    {
      name: "web",
      memory: 2048,
      scsi0: "local-lvm:vm-100-disk-0,size=8G",
      net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0",
      tags: ["pvectl", ...recordTags(f)].join(";"),
    },
  );
  const vm: DesiredVm = {
    kind: "qemu",
    key: "web",
    name: "web",
    vmid: 100,
    node: f.spec,
    options: { memory: "2048", ...(f.onboot ? { onboot: "1" } : {}) },
    disks: [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 8 * 1024 ** 3, options: {} }],
    nics: [{ slot: "net0", bridge: "vmbr0", options: {} }],
    special: {},
    ...(f.power !== undefined ? { power: f.power } : {}),
  };
  return planUpdate(vm, live, {
    shutdownTimeoutSeconds: 60,
    forceStop: false,
    placement: { followSpec: f.followSpec, sharedStorages: new Set(["shared"]) },
  });
}

describe("placement decisions", () => {
  it("never moves a guest on its spec's node, never one HA manages, never back after someone else's move", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const ha = f.haState !== undefined && f.haState !== "ignored";
        const d = decidePlacement({
          live: f.live,
          spec: f.spec,
          ...(f.record !== undefined && !f.extraRecord ? { record: f.record } : {}),
          recordPresent: f.record !== undefined,
          haManaged: ha,
          followSpec: f.followSpec,
        });
        if (f.live === f.spec) assert.ok(d.kind === "in-place" || d.kind === "record");
        if (d.kind === "record") assert.equal(f.live, f.spec);
        if (ha) assert.notEqual(d.kind, "migrate");
        if (f.live !== f.spec && f.record === f.spec && !f.extraRecord && !f.followSpec) assert.equal(d.kind, "moved-elsewhere");
        if (f.live !== f.spec && f.followSpec) assert.equal(d.kind, ha ? "ha-owned" : "migrate");
        if (f.live === f.spec && f.record === f.live && !f.extraRecord) assert.equal(d.kind, "in-place");
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("plans the migration first after the opening steps, every later step on the target, the record next; no power call on an HA resource", () => {
    fc.assert(
      fc.property(facts, (f) => {
        const planned = plan(f);
        const steps = planned.steps;
        const ha = f.haState !== undefined && f.haState !== "ignored";
        const calls = steps.flatMap((s) => s.calls);
        if (ha) {
          assert.ok(!calls.some((c) => c.intent.op === "migrate" || c.intent.op === "power"), JSON.stringify(steps.map((s) => s.action)));
        }
        const at = steps.findIndex((s) => s.action === "migrate");
        if (at < 0) {
          // Nothing moves, so everything runs where the guest is.
          for (const c of calls) assert.ok(plannedPath(c).startsWith(`/nodes/${f.live}/`));
          return;
        }
        assert.notEqual(f.live, f.spec);
        assert.ok(steps.slice(0, at).every((s) => s.action === "stop"));
        assert.equal(steps[at + 1]?.action, "record-placement");
        assert.equal(planned.node, f.spec);
        assert.ok(plannedPath(steps[at]!.calls[0]!).startsWith(`/nodes/${f.live}/`));
        for (const s of steps.slice(at + 1)) for (const c of s.calls) assert.ok(plannedPath(c).startsWith(`/nodes/${f.spec}/`));
        const tags = String(steps[at + 1]!.calls[0]!.body.tags).split(";");
        assert.deepEqual(
          tags.filter((t) => t.startsWith("pvectl-node.")),
          [`pvectl-node.${f.spec}`],
        );
      }),
      { seed: SEED, numRuns: 400 },
    );
  });
});
