// Invariants of `template` in plans, for random specs against random live guests of both
// kinds: a template is never started and never has its volumes changed; a conversion is the
// last step, comes after a stop when the guest runs (and only then is service-impact); the way
// back (`template: false` on a template) never plans anything.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { GuestPlan } from "../../src/plan/types.js";
import { planUpdateCt } from "../../src/resources/lxc/diff.js";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import { ctConfig, desiredCt, GIB, liveCt, power } from "./lxc/fixture.js";

const SEED = 1414;
const VOLUME_STEPS = new Set(["disk-add", "disk-grow", "disk-move", "disk-detach", "disk-delete"]);

const wish = fc.record({
  template: fc.constantFrom(true, false, undefined),
  power: fc.constantFrom("running" as const, "stopped" as const, undefined),
  liveTemplate: fc.boolean(),
  running: fc.boolean(),
  cores: fc.integer({ min: 1, max: 4 }),
  bridge: fc.constantFrom("vmbr0", "vmbr1"),
  sizeGiB: fc.constantFrom(8, 8, 16),
  extraDisk: fc.boolean(),
});
type Wish = typeof wish extends fc.Arbitrary<infer T> ? T : never;

function vmPlan(w: Wish): GuestPlan {
  // A template never runs: PVE refuses to start one.
  const status = w.running && !w.liveTemplate ? "running" : "stopped";
  const live = liveVmFromConfig(
    { vmid: 9000, node: "pve1", status },
    {
      name: "base",
      cores: 2,
      memory: 2048,
      scsi0: `local-lvm:${w.liveTemplate ? "base" : "vm"}-9000-disk-0,size=8G`,
      net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0",
      tags: "pvectl",
      ...(w.liveTemplate ? { template: 1 } : {}),
    },
  );
  const disks: DesiredVm["disks"] = [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: w.sizeGiB * GIB, options: {} }];
  if (w.extraDisk) disks.push({ slot: "scsi1", kind: "disk", storage: "local-lvm", sizeBytes: GIB, options: {} });
  const vm: DesiredVm = {
    kind: "qemu",
    key: "base",
    name: "base",
    vmid: 9000,
    node: "pve1",
    options: { cores: String(w.cores), memory: "2048" },
    disks,
    nics: [{ slot: "net0", bridge: w.bridge, options: {} }],
    special: {},
    ...(w.template !== undefined ? { template: w.template } : {}),
    ...(w.power !== undefined ? { power: w.power } : {}),
  };
  return planUpdate(vm, live, power);
}

function ctPlan(w: Wish): GuestPlan {
  const status = w.running && !w.liveTemplate ? "running" : "stopped";
  const config = w.liveTemplate
    ? {
        ...ctConfig(),
        rootfs: "local-lvm:base-200-disk-0,size=8G",
        mp0: "local-lvm:base-200-disk-1,mp=/data,backup=1,size=16G",
        template: 1,
      }
    : ctConfig();
  const ct = desiredCt();
  ct.options = { ...ct.options, cores: String(w.cores) };
  ct.mounts[0] = { slot: "rootfs", storage: "local-lvm", sizeBytes: w.sizeGiB * GIB, options: {} };
  if (w.extraDisk) ct.mounts.push({ slot: "mp2", storage: "local-lvm", sizeBytes: GIB, mountpoint: "/extra", options: {} });
  ct.nics[0] = { ...ct.nics[0]!, bridge: w.bridge };
  if (w.template !== undefined) ct.template = w.template;
  if (w.power !== undefined) ct.power = w.power;
  return planUpdateCt(ct, liveCt(status, config), power);
}

function checkInvariants(w: Wish, plan: GuestPlan): void {
  const actions = plan.steps.map((s) => s.action);
  const running = w.running && !w.liveTemplate;
  if (w.liveTemplate || w.template === true) assert.ok(!actions.includes("start"), "a template is never started");
  if (w.liveTemplate) {
    assert.ok(!actions.includes("template"), "a template is not converted again");
    assert.ok(!actions.some((a) => VOLUME_STEPS.has(a)), "a template's volumes are left alone");
    if (w.template === false || w.power === "running")
      assert.ok(plan.errors.length > 0 && plan.steps.length === 0, "the way back is an error");
  }
  const converting = !w.liveTemplate && w.template === true && !(w.power === "running");
  if (converting && plan.errors.length === 0) {
    assert.equal(actions.at(-1), "template", "the conversion comes last");
    assert.equal(actions.filter((a) => a === "template").length, 1);
    assert.equal(actions.includes("stop"), running, "stopped first exactly when it runs");
    assert.ok(!plan.steps.some((s) => s.pendingUntilReboot) && !actions.includes("reboot"), "nothing waits for a reboot that never comes");
    assert.equal(plan.steps.at(-1)!.severity, running ? "service-impact" : "configuration");
  } else assert.ok(!actions.includes("template"), "converted only when asked and not one yet");
}

describe("template invariants (random specs against random live guests)", () => {
  it("hold for VMs", () => {
    fc.assert(
      fc.property(wish, (w) => checkInvariants(w, vmPlan(w))),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("hold for containers", () => {
    fc.assert(
      fc.property(wish, (w) => checkInvariants(w, ctPlan(w))),
      { seed: SEED, numRuns: 400 },
    );
  });
});
