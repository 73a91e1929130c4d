import { plannedParams } from "../../src/plan/resolve-call.js";
// A spec that leaves a device section out (no `disks:`, `cdroms:` or `nics:` key) keeps the
// live devices of that kind; a section written empty (`nics: {}`) still means "none".
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { readConfigFixture } from "./config-fixture.js";

const power = { shutdownTimeoutSeconds: 60, forceStop: false };

// qemu-server's simple1.conf: scsi0 on local (104858K), ide2 an empty CD-ROM, net0 virtio on vmbr0.
function simple(status: "running" | "stopped" = "running") {
  return liveVmFromConfig({ vmid: 8006, node: "pve1", status }, { ...readConfigFixture("cfg2cmd__simple1.conf"), digest: "d1" });
}

function fromYaml(sections: string): DesiredVm {
  const yaml = `version: 1\nvms:\n  - vmid: 8006\n    name: simple\n    node: pve1\n    cores: 3\n${sections}`;
  const vm = parseSpec(yaml, "test.yaml").vms[0];
  assert.ok(vm, "the spec has one VM");
  return desiredVmFromSpec(vm);
}

function actions(vm: DesiredVm, status: "running" | "stopped" = "running"): string[] {
  const plan = planUpdate(vm, simple(status), power);
  assert.deepEqual(plan.errors, []);
  return plan.steps.map((s) => `${s.action} ${s.summary}`);
}

describe("device sections a spec leaves out", () => {
  it("keeps live NICs, disks and CD-ROMs when the spec has none of the sections", () => {
    const vm = fromYaml("");
    assert.deepEqual(vm.unmanaged, ["disks", "cdroms", "nics", "cloudInit"]);
    assert.deepEqual(actions(vm), []);
  });

  it("a spec without `nics:` leaves the live NIC alone while disks are managed", () => {
    const vm = fromYaml(
      ["    disks:", "      scsi0: { storage: local, size: 104858K, discard: on }", "    cdroms:", "      ide2: {}", ""].join("\n"),
    );
    assert.deepEqual(vm.unmanaged, ["nics", "cloudInit"]);
    assert.deepEqual(actions(vm), []);
  });

  it("a spec without `disks:` plans no disk delete, but its NICs are converged", () => {
    const vm = fromYaml(["    nics:", "      net0: { bridge: vmbr1 }", ""].join("\n"));
    const steps = actions(vm, "stopped");
    assert.deepEqual(steps, ["nic-change change net0 (MAC A2:C0:43:77:08:A0 kept)"]);
  });

  it("`disks: {}` written explicitly still deletes the live disk (data-loss-risk)", () => {
    const vm = fromYaml(["    disks: {}", "    cdroms: {}", "    nics: {}", ""].join("\n"));
    assert.deepEqual(vm.unmanaged, ["cloudInit"], "only the cloud-init drive is left out");
    const plan = planUpdate(vm, simple("stopped"), power);
    const byAction = plan.steps.map((s) => [s.action, s.severity, s.calls[0] ? plannedParams(s.calls[0]) : undefined]);
    assert.deepEqual(byAction, [
      ["disk-detach", "configuration", { delete: "ide2" }],
      ["disk-delete", "data-loss-risk", { delete: "scsi0", force: 1 }],
      ["nic-remove", "configuration", { delete: "net0" }],
    ]);
    assert.deepEqual(plan.steps[1]?.deletesVolumes, ["local:8006/vm-8006-disk-0.qcow2"]);
  });

  it("an explicit `detach:` still detaches a disk when the `disks:` section is left out", () => {
    const vm = fromYaml("");
    vm.detach = ["scsi0"];
    assert.deepEqual(actions(vm, "stopped"), ["disk-detach detach scsi0 (volume local:8006/vm-8006-disk-0.qcow2 kept as an unused disk)"]);
  });
});
