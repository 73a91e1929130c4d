import { plannedParams, plannedRequest } from "../../src/plan/resolve-call.js";
// "Left out means not managed" for the keys that used to be managed anyway: tags, the
// cloud-init drive, a NIC's model and pool membership. A spec that leaves them out plans
// nothing for them; a spec that writes them plans exactly that change.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import type { DesiredVm, LiveVm } from "../../src/resources/qemu/model.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const power = { shutdownTimeoutSeconds: 60, forceStop: false };

/** A guest made by someone else's tooling: tags, a cloud-init drive with ci* keys, an e1000 NIC, a pool. */
function live(): LiveVm {
  return liveVmFromConfig(
    { vmid: 300, node: "pve1", status: "running", pool: "prod" },
    {
      name: "web",
      tags: "prod;pvectl;web",
      memory: 2048,
      ide2: "local-lvm:vm-300-cloudinit,media=cdrom",
      ciuser: "debian",
      ipconfig0: "ip=10.0.0.5/24,gw=10.0.0.1",
      net0: "e1000=BC:24:11:00:00:01,bridge=vmbr0",
      scsi0: "local-lvm:vm-300-disk-0,size=8G",
      digest: "d",
    },
  );
}

function spec(extra: string): DesiredVm {
  const yaml = `vms:\n  - vmid: 300\n    name: web\n    node: pve1\n${extra}`;
  return desiredVmFromSpec(parseSpec(yaml, "test.yaml").vms[0]!);
}

function plan(extra: string) {
  const result = planUpdate(spec(extra), live(), power);
  assert.deepEqual(result.errors, []);
  return result;
}

describe("keys a spec leaves out are not managed", () => {
  it("a spec without `tags:` keeps the guest's tags (no tags change, no call with tags)", () => {
    const result = plan("    memory: 4096\n");
    const fields = new Set(result.steps.flatMap((s) => s.changes.map((c) => c.field)));
    assert.deepEqual([...fields], ["memory"], "only memory changes (pending, then the reboot that applies it)");
    for (const step of result.steps)
      for (const call of step.calls) assert.equal(plannedParams(call).tags, undefined, `${step.summary} writes no tags`);
  });

  it("a spec with `tags:` replaces them and keeps the ownership tag", () => {
    const result = plan("    tags: [web]\n");
    assert.deepEqual(
      result.steps.map((s) => [s.action, s.calls[0] ? plannedParams(s.calls[0]) : undefined]),
      [["config", { tags: "pvectl;web" }]],
    );
  });

  it("a spec without `cloudInit:` does not remove the cloud-init drive nor touch ci* keys", () => {
    const vm = spec("    disks:\n      scsi0: { storage: local-lvm, size: 8G }\n    cdroms: {}\n");
    assert.ok(vm.unmanaged?.includes("cloudInit"));
    assert.deepEqual(planUpdate(vm, live(), power).steps, []);
  });

  it("a NIC listed without `model:` keeps its live model (e1000), while its bridge is converged", () => {
    const result = plan("    nics:\n      net0: { bridge: vmbr1 }\n");
    assert.deepEqual(
      result.steps.map((s) => [s.action, s.changes.map((c) => c.field), s.calls[0] ? plannedParams(s.calls[0]).net0 : undefined]),
      [["nic-change", ["net0.bridge"], "e1000=BC:24:11:00:00:01,bridge=vmbr1"]],
    );
  });

  it('a spec without `pool:` plans no pool step; `pool:` plans a move, `pool: ""` a leave', () => {
    assert.deepEqual(plan("").steps, []);
    assert.deepEqual(
      plan("    pool: dev\n").steps.map((s) => [s.action, s.summary, s.calls[0] ? plannedRequest(s.calls[0]) : undefined]),
      [
        [
          "pool",
          "move from pool prod to pool dev",
          {
            method: "PUT",
            path: "/pools",
            params: { poolid: "dev", vms: "300", "allow-move": 1 },
            intent: { kind: "pool", op: "pool-membership", pool: "dev", vmids: [300], leave: false, from: "prod" },
          },
        ],
      ],
    );
    assert.deepEqual(
      plan('    pool: ""\n').steps.map((s) => [s.action, s.summary, s.calls[0] ? plannedParams(s.calls[0]) : undefined]),
      [["pool", "leave pool prod", { poolid: "prod", vms: "300", delete: 1 }]],
    );
    assert.deepEqual(plan("    pool: prod\n").steps, [], "already a member");
  });
});
