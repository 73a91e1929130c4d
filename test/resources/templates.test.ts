import { plannedParams, plannedPath, plannedRequest } from "../../src/plan/resolve-call.js";
// `template: true` in plans of both kinds: a guest is converted once, last, stopped first when
// it runs; a template converges like other guests except its volumes and its power; the way
// back (`template: false`) is an error that says what to do.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planCreateCt, planUpdateCt } from "../../src/resources/lxc/diff.js";
import { planCreate, planUpdate } from "../../src/resources/qemu/diff.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import { ctConfig, desiredCt, GIB, liveCt, power } from "./lxc/fixture.js";

function vmConfig(template = false): Record<string, string | number> {
  return {
    name: "base",
    cores: 2,
    memory: 2048,
    scsi0: `local-lvm:${template ? "base" : "vm"}-9000-disk-0,size=8G`,
    net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0",
    tags: "pvectl",
    digest: "d9",
    ...(template ? { template: 1 } : {}),
  };
}

function liveVm(status: "running" | "stopped", template = false) {
  return liveVmFromConfig({ vmid: 9000, node: "pve1", status }, vmConfig(template));
}

function desiredVm(extra: Partial<DesiredVm> = {}): DesiredVm {
  return {
    kind: "qemu",
    key: "base",
    name: "base",
    vmid: 9000,
    node: "pve1",
    options: { cores: "2", memory: "2048" },
    disks: [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 8 * GIB, options: {} }],
    nics: [{ slot: "net0", bridge: "vmbr0", options: {} }],
    special: {},
    ...extra,
  };
}

const actions = (plan: { steps: Array<{ action: string }> }) => plan.steps.map((s) => s.action);

describe("template: true on a VM", () => {
  it("a new VM is created, then converted, and never started", () => {
    const plan = planCreate(desiredVm({ template: true }));
    assert.deepEqual(actions(plan), ["create", "template"]);
    const [create, convert] = plan.steps;
    assert.equal(plannedParams(create!.calls[0]!).start, undefined);
    assert.equal(convert!.severity, "configuration");
    assert.match(convert!.summary, /cannot be undone/);
    // The intent names where the disks will be, for preflight's storage check.
    assert.deepEqual(convert!.calls.map(plannedRequest), [
      {
        method: "POST",
        path: "/nodes/pve1/qemu/9000/template",
        params: {},
        intent: { kind: "qemu", op: "template", volumes: [{ slot: "scsi0", storage: "local-lvm" }] },
      },
    ]);
  });

  it("a new VM without a vmid is converted at the vmid apply allocates", () => {
    const { vmid: _, ...rest } = desiredVm({ template: true });
    const plan = planCreate(rest);
    assert.equal(plannedPath(plan.steps[1]!.calls[0]!), "/nodes/pve1/qemu/{vmid}/template");
  });

  it("a stopped VM is converted as a configuration step, after its other changes", () => {
    const plan = planUpdate(desiredVm({ template: true, options: { cores: "4", memory: "2048" } }), liveVm("stopped"), power);
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(actions(plan), ["config", "template"]);
    assert.equal(plan.steps[1]!.severity, "configuration");
  });

  it("a running VM is stopped first, and the conversion is service-impact", () => {
    const plan = planUpdate(desiredVm({ template: true, options: { cores: "4", memory: "2048" } }), liveVm("running"), power);
    assert.deepEqual(actions(plan), ["stop", "config", "template"]);
    assert.match(plan.steps[0]!.summary, /before converting it to a template/);
    assert.equal(plan.steps[2]!.severity, "service-impact");
    // Stopped first, so the core count applies at once: no pending change, no reboot.
    assert.equal(plan.steps[1]!.pendingUntilReboot, undefined);
  });

  it("a template the spec describes as it is plans nothing, with or without `template: true`", () => {
    for (const template of [true, undefined]) {
      const plan = planUpdate(desiredVm(template ? { template } : {}), liveVm("stopped", true), power);
      assert.deepEqual([plan.errors, plan.steps], [[], []], `template: ${template}`);
    }
  });

  it("a template's config and NICs converge like any VM's", () => {
    const vm = desiredVm({ options: { cores: "4", memory: "2048" }, nics: [{ slot: "net0", bridge: "vmbr1", options: {} }] });
    const plan = planUpdate(vm, liveVm("stopped", true), power);
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(actions(plan), ["config", "nic-change"]);
  });

  it("a change to a template's volumes is an error that says what to do", () => {
    const vm = desiredVm({ disks: [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 16 * GIB, options: {} }] });
    const plan = planUpdate(vm, liveVm("stopped", true), power);
    assert.deepEqual(plan.steps, []);
    assert.equal(plan.errors.length, 1);
    assert.match(plan.errors[0]!, /vmid 9000 is a template: pvectl does not change its volumes .*Clone it/);
  });

  it("`template: false` on a template is an error: PVE cannot undo a conversion", () => {
    const plan = planUpdate(desiredVm({ template: false }), liveVm("stopped", true), power);
    assert.deepEqual(plan.steps, []);
    assert.match(
      plan.errors.join("\n"),
      /is a VM template and the spec says `template: false`: PVE has no way to turn a template back .*clone it/,
    );
  });

  it("`power: running` on a template is an error, never a start step", () => {
    const plan = planUpdate(desiredVm({ power: "running" }), liveVm("stopped", true), power);
    assert.deepEqual(plan.steps, []);
    assert.match(plan.errors.join("\n"), /PVE never starts a template/);
  });

  it("`template: false` on a guest that is not one plans nothing", () => {
    assert.deepEqual(planUpdate(desiredVm({ template: false }), liveVm("stopped"), power).steps, []);
  });
});

describe("template: true on a container", () => {
  const tplConfig = () => ({
    ...ctConfig(),
    rootfs: "local-lvm:base-200-disk-0,size=8G",
    mp0: "local-lvm:base-200-disk-1,mp=/data,backup=1,size=16G",
    template: 1,
  });

  it("a new container is created, then converted in a vztemplate call", () => {
    const plan = planCreateCt({ ...desiredCt(), template: true });
    assert.deepEqual(actions(plan), ["create", "template"]);
    const call = plan.steps[1]!.calls[0]!;
    assert.deepEqual(
      { ...plannedRequest(call), intent: { kind: call.intent.kind, op: call.intent.op } },
      { method: "POST", path: "/nodes/pve1/lxc/200/template", params: {}, intent: { kind: "lxc", op: "template" } },
    );
    assert.ok(call.intent.op === "template");
    assert.ok(
      (call.intent.volumes ?? []).some((v) => v.slot === "rootfs"),
      "the intent names rootfs and where it will be",
    );
  });

  it("a running container is stopped first; the conversion comes last", () => {
    const plan = planUpdateCt({ ...desiredCt(), template: true }, liveCt("running"), power);
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(actions(plan), ["stop", "template"]);
    assert.equal(plan.steps[1]!.severity, "service-impact");
  });

  it("a template the spec describes as it is plans nothing", () => {
    const plan = planUpdateCt({ ...desiredCt(), template: true }, liveCt("stopped", tplConfig()), power);
    assert.deepEqual([plan.errors, plan.steps], [[], []]);
  });

  it("growing a template's mount point is an error; `template: false` too", () => {
    const grow = desiredCt();
    grow.mounts[0] = { slot: "rootfs", storage: "local-lvm", sizeBytes: 16 * GIB, options: {} };
    assert.match(planUpdateCt(grow, liveCt("stopped", tplConfig()), power).errors.join("\n"), /does not change its volumes/);
    assert.match(
      planUpdateCt({ ...desiredCt(), template: false }, liveCt("stopped", tplConfig()), power).errors.join("\n"),
      /no way to turn a template back into a container/,
    );
  });
});
