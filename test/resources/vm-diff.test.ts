import { plannedParams, plannedPath, plannedRequest } from "../../src/plan/resolve-call.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { liveVmFromConfig, liveVmFromPending } from "../../src/resources/qemu/read.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";
import { planGuestDestroy } from "../../src/resources/destroy-plan.js";
import { planCreate, planUpdate } from "../../src/resources/qemu/diff.js";
import { GUEST_KINDS } from "../../src/resources/index.js";
import { normalizeOption } from "../../src/resources/qemu/options.js";
import { humanSize } from "../../src/resources/formats.js";
import { readConfigFixture, readJsonFixture } from "./config-fixture.js";

const GIB = 1024 ** 3;
const power = { shutdownTimeoutSeconds: 60, forceStop: false };

// community.proxmox's recorded config of "test1": scsi0 32G on local-lvm, net0 virtio with a MAC.
function test1(status: "running" | "stopped" = "stopped") {
  return liveVmFromConfig(
    { vmid: 101, node: "pve1", status },
    { ...readJsonFixture("community-proxmox__GET_nodes_NODE_qemu_VMID_config__01.json"), digest: "abc" },
  );
}

function desiredTest1(): DesiredVm {
  return {
    kind: "qemu",
    key: "test1",
    name: "test1",
    vmid: 101,
    node: "pve1",
    options: { cores: "1", memory: "2048", ostype: "l26", scsihw: "virtio-scsi-single", sockets: "1" },
    tags: [],
    disks: [{ slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 32 * GIB, options: { iothread: "1" } }],
    nics: [{ slot: "net0", model: "virtio", bridge: "vmbr0", options: { firewall: "1" } }],
    special: {},
  };
}

describe("VM diff against a recorded live config", () => {
  it("plans nothing when the spec matches the live guest (defaults, generated MAC ignored)", () => {
    const plan = planUpdate(desiredTest1(), test1(), power);
    assert.deepEqual(plan.steps, []);
    assert.deepEqual(plan.errors, []);
    assert.equal(plan.digest, "abc");
  });

  it("treats an unset key as PVE's default: `numa: 0` and `kvm: 1` are no change", () => {
    const vm = desiredTest1();
    vm.options.numa = "0";
    vm.options.kvm = "1";
    assert.deepEqual(planUpdate(vm, test1(), power).steps, []);
  });

  it("changes memory at once on a stopped guest", () => {
    const vm = desiredTest1();
    vm.options.memory = "4096";
    const plan = planUpdate(vm, test1("stopped"), power);
    assert.equal(plan.steps.length, 1);
    const step = plan.steps[0]!;
    assert.equal(step.action, "config");
    assert.equal(step.severity, "configuration");
    assert.deepEqual(step.changes, [{ field: "memory", before: "2048", after: "4096" }]);
    assert.deepEqual(step.calls.map(plannedRequest), [
      {
        method: "PUT",
        path: "/nodes/pve1/qemu/101/config",
        params: { memory: "4096" },
        intent: { kind: "qemu", op: "configure", writes: [{ key: "memory", as: "option" }], deletes: [], allocates: false },
      },
    ]);
  });

  it("marks a memory change on a running guest as pending until reboot, then plans the reboot", () => {
    const vm = desiredTest1();
    vm.options.memory = "4096";
    vm.options.description = "web";
    const plan = planUpdate(vm, test1("running"), power);
    assert.deepEqual(
      plan.steps.map((s) => [s.action, s.severity]),
      [
        ["config", "configuration"],
        ["config-pending", "service-impact"],
        ["reboot", "service-impact"],
      ],
    );
    assert.deepEqual(
      plan.steps[0]!.changes.map((c) => c.field),
      ["description"],
    );
    assert.equal(plan.steps[1]!.pendingUntilReboot, true);
    assert.match(plan.steps[2]!.summary, /pending changes \(memory\)/);
  });

  it("compares descriptions as PVE reads them back: without trailing whitespace, leading spaces kept", () => {
    const live = test1();
    live.options.description = normalizeOption("description", "managed by ansible");
    // a number-like description stays text
    assert.equal(normalizeOption("description", "1.50"), "1.50");
    const vm = desiredTest1();
    // a YAML `|` block scalar ends in a newline PVE never stores
    vm.options.description = normalizeOption("description", "managed by ansible\n");
    assert.deepEqual(planUpdate(vm, live, power).steps, []);
    vm.options.description = normalizeOption("description", "  managed by ansible");
    assert.deepEqual(
      planUpdate(vm, live, power).steps.flatMap((s) => s.changes.map((c) => c.field)),
      ["description"],
    );
  });

  it("changes a NIC's bridge keeping its generated MAC", () => {
    const vm = desiredTest1();
    vm.nics[0]!.bridge = "vmbr1";
    const plan = planUpdate(vm, test1(), power);
    assert.equal(plan.steps.length, 1);
    assert.equal(plan.steps[0]!.action, "nic-change");
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { net0: "virtio=4E:79:9F:A8:EE:E4,bridge=vmbr1,firewall=1" });
    assert.match(plan.steps[0]!.summary, /MAC 4E:79:9F:A8:EE:E4 kept/);
  });

  it("sets the MAC when the spec names one (case-insensitive compare)", () => {
    const vm = desiredTest1();
    vm.nics[0]!.macaddr = "4e:79:9f:a8:ee:e4";
    assert.deepEqual(planUpdate(vm, test1(), power).steps, []);
    vm.nics[0]!.macaddr = "BC:24:11:00:00:01";
    const plan = planUpdate(vm, test1(), power);
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0,firewall=1" });
  });

  it("changes disk options on the same volume, never allocating a new one", () => {
    const vm = desiredTest1();
    vm.disks[0]!.options = { iothread: "1", discard: "on", ssd: "1" };
    const plan = planUpdate(vm, test1(), power);
    assert.equal(plan.steps.length, 1);
    const step = plan.steps[0]!;
    assert.equal(step.action, "disk-options");
    assert.deepEqual(plannedParams(step.calls[0]!), { scsi0: "local-lvm:vm-101-disk-0,discard=on,iothread=1,size=32G,ssd=1" });
    assert.deepEqual(step.changes, [
      { field: "scsi0.discard", before: "ignore", after: "on" },
      { field: "scsi0.ssd", before: "0", after: "1" },
    ]);
  });

  it("grows a disk with an absolute size and refuses to shrink one", () => {
    const vm = desiredTest1();
    vm.disks[0]!.sizeBytes = 40 * GIB;
    const grow = planUpdate(vm, test1(), power);
    assert.equal(grow.steps[0]!.action, "disk-grow");
    assert.deepEqual(plannedRequest(grow.steps[0]!.calls[0]!), {
      method: "PUT",
      path: "/nodes/pve1/qemu/101/resize",
      params: { disk: "scsi0", size: "40G" },
      intent: { kind: "qemu", op: "resize", slot: "scsi0", sizeBytes: 40 * GIB, fromBytes: 32 * GIB, storage: "local-lvm" },
    });
    vm.disks[0]!.sizeBytes = 16 * GIB;
    const shrink = planUpdate(vm, test1(), power);
    assert.deepEqual(shrink.steps, []);
    assert.deepEqual(shrink.errors, [
      "scsi0: shrinking from 32 GiB to 16 GiB is refused (PVE cannot shrink disks and data would be lost); set size to at least 32 GiB",
    ]);
  });

  it("moves a disk to another storage, saying what is copied and how; the source is kept as unusedN unless --allow-data-loss", () => {
    const vm = desiredTest1();
    vm.disks[0]!.storage = "ceph";
    const live = test1();
    const plan = planUpdate(vm, live, power);
    const [move, destroy] = plan.steps;
    assert.equal(move!.action, "disk-move");
    assert.equal(move!.severity, "configuration");
    assert.deepEqual(plannedParams(move!.calls[0]!), { disk: "scsi0", storage: "ceph", delete: 0 });
    const size = humanSize(live.disks.scsi0!.sizeBytes!);
    const how =
      live.status === "running"
        ? `${size} copied online (drive-mirror: the VM keeps running)`
        : `${size} copied offline (the VM is stopped)`;
    assert.equal(move!.summary, `move scsi0 from local-lvm to ceph: ${how}; the source volume local-lvm:vm-101-disk-0 is kept as unused0`);
    assert.deepEqual(move!.changes[1], { field: "scsi0.move", after: how });
    assert.equal(destroy!.action, "disk-delete");
    assert.equal(destroy!.severity, "data-loss-risk");
    assert.deepEqual(destroy!.deletesVolumes, ["local-lvm:vm-101-disk-0"]);
    assert.deepEqual(plannedParams(destroy!.calls[0]!), { delete: "unused0" });
  });

  it("a cloud-init drive without a storage (a NetBox clone's) is the guest's as it is, or a plan error when the guest has none there", () => {
    const vm = desiredTest1();
    vm.disks.push({ slot: "ide2", kind: "cloudinit", options: {} });
    const live = test1();
    const kept = planUpdate(
      vm,
      {
        ...live,
        disks: { ...live.disks, ide2: { slot: "ide2", kind: "cloudinit", volume: "zfs:vm-101-cloudinit", storage: "zfs", options: {} } },
      },
      power,
    );
    assert.deepEqual([kept.steps, kept.errors, kept.warnings], [[], [], []], "no move, no warning: its storage is not managed");
    const missing = planUpdate(vm, live, power);
    assert.deepEqual(missing.steps, []);
    assert.deepEqual(missing.errors, [
      "ide2: the guest has no cloud-init drive there, and a new one needs a storage: name it, or the slot the guest's drive is in",
    ]);
  });

  it("a running VM's disk is moved online, a stopped one's offline", () => {
    const vm = desiredTest1();
    vm.disks[0]!.storage = "ceph";
    const running = planUpdate(vm, test1("running"), power);
    const stopped = planUpdate(vm, test1("stopped"), power);
    assert.match(running.steps.find((s) => s.action === "disk-move")!.summary, /copied online \(drive-mirror: the VM keeps running\)/);
    assert.match(stopped.steps.find((s) => s.action === "disk-move")!.summary, /copied offline \(the VM is stopped\)/);
  });

  it("deletes a disk the spec no longer has as data-loss-risk, naming the volume", () => {
    const vm = desiredTest1();
    vm.disks = [];
    const plan = planUpdate(vm, test1(), power);
    assert.equal(plan.steps.length, 1);
    const step = plan.steps[0]!;
    assert.equal(step.action, "disk-delete");
    assert.equal(step.severity, "data-loss-risk");
    assert.deepEqual(step.deletesVolumes, ["local-lvm:vm-101-disk-0"]);
    assert.deepEqual(plannedParams(step.calls[0]!), { delete: "scsi0", force: 1 });
  });

  it("adds a disk with PVE's STORAGE:GiB syntax and a NIC without a MAC", () => {
    const vm = desiredTest1();
    vm.disks.push({ slot: "scsi1", kind: "disk", storage: "local-lvm", sizeBytes: 8 * GIB, options: { discard: "on" } });
    vm.nics.push({ slot: "net1", model: "virtio", bridge: "vmbr1", options: { tag: "20" } });
    const plan = planUpdate(vm, test1(), power);
    assert.deepEqual(
      plan.steps.map((s) => [s.action, plannedParams(s.calls[0]!)]),
      [
        ["disk-add", { scsi1: "local-lvm:8,discard=on" }],
        ["nic-add", { net1: "model=virtio,bridge=vmbr1,tag=20" }],
      ],
    );
  });

  it("stops first when the spec wants the guest stopped, so later changes are not pending", () => {
    const vm = desiredTest1();
    vm.power = "stopped";
    vm.options.memory = "4096";
    const plan = planUpdate(vm, test1("running"), power);
    assert.deepEqual(
      plan.steps.map((s) => s.action),
      ["stop", "config"],
    );
    assert.equal(plan.steps[0]!.severity, "service-impact");
    assert.deepEqual(plannedParams(plan.steps[0]!.calls[0]!), { timeout: 60 });
  });

  it("starts a stopped guest the spec wants running", () => {
    const vm = desiredTest1();
    vm.power = "running";
    const plan = planUpdate(vm, test1("stopped"), power);
    assert.deepEqual(
      plan.steps.map((s) => [s.action, plannedPath(s.calls[0]!)]),
      [["start", "/nodes/pve1/qemu/101/status/start"]],
    );
  });
});

describe("VM diff on qemu-server's own test configs", () => {
  it("destroy names every volume, unused ones included, and never the ISOs", () => {
    const live = liveVmFromConfig({ vmid: 111, node: "pve1", status: "running" }, readConfigFixture("parse-config-input__snapshots.conf"));
    const plan = planGuestDestroy(GUEST_KINDS.qemu, "win", live, power);
    assert.deepEqual(
      plan.steps.map((s) => s.action),
      ["stop", "destroy"],
    );
    assert.deepEqual(plan.steps[1]!.deletesVolumes, [
      "dir:111/vm-111-disk-0.qcow2",
      "dir:111/vm-111-disk-1.qcow2",
      "dir:111/vm-111-disk-2.qcow2",
      "lvmthinbig:vm-111-disk-0",
      "rbd:vm-111-disk-0",
    ]);
    assert.equal(plan.steps[1]!.severity, "data-loss-risk");
  });

  it("reads tags, CD-ROMs and sizes in K from simple1.conf", () => {
    const live = liveVmFromConfig({ vmid: 8006, node: "pve1", status: "stopped" }, readConfigFixture("cfg2cmd__simple1.conf"));
    assert.equal(live.disks.ide2!.kind, "cdrom");
    assert.equal(live.disks.ide2!.volume, "none");
    assert.equal(live.disks.scsi0!.sizeBytes, 104858 * 1024);
    assert.equal(live.disks.scsi0!.storage, "local");
    assert.equal(live.nics.net0!.macaddr, "A2:C0:43:77:08:A0");
    assert.equal(live.options.memory, "768");
  });

  it("reads pending values and deletions from GET .../pending", () => {
    const live = liveVmFromPending({ vmid: 100, node: "pve1", status: "running" }, [
      { key: "digest", value: "d1" },
      { key: "memory", value: "2048", pending: "4096" },
      { key: "cores", value: 2 },
      { key: "net1", value: "virtio=BC:24:11:00:00:02,bridge=vmbr0", delete: 1 },
    ]);
    assert.equal(live.digest, "d1");
    assert.equal(live.options.memory, "4096");
    assert.equal(live.options.cores, "2");
    assert.equal(live.nics.net1, undefined);
    assert.deepEqual(live.pendingKeys, ["memory", "net1"]);
  });
});

describe("create", () => {
  it("creates with disks, NICs, the ownership tag and start in one call", () => {
    const vm = desiredTest1();
    delete vm.vmid;
    vm.power = "running";
    vm.tags = ["web"];
    vm.disks.push({ slot: "ide2", kind: "cdrom", iso: "local:iso/debian.iso", options: {} });
    const plan = planCreate(vm);
    assert.equal(plan.steps.length, 1);
    const call = plan.steps[0]!.calls[0]!;
    assert.equal(plannedPath(call), "/nodes/pve1/qemu");
    assert.deepEqual(plannedParams(call), {
      name: "test1",
      cores: "1",
      memory: "2048",
      ostype: "l26",
      scsihw: "virtio-scsi-single",
      sockets: "1",
      tags: "pvectl;pvectl-node.pve1;web",
      scsi0: "local-lvm:32,iothread=1",
      ide2: "local:iso/debian.iso,media=cdrom",
      net0: "model=virtio,bridge=vmbr0,firewall=1",
      start: 1,
    });
  });
});
