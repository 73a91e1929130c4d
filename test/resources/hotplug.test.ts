// Severities of changes to a running guest, checked against what qemu-server does with them
// (vmconfig_hotplug_pending, vmconfig_update_net, vmconfig_update_disk): what applies in
// place is `configuration`; what unplugs a device or waits for a reboot is `service-impact`.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";

const GIB = 1024 ** 3;
const power = { shutdownTimeoutSeconds: 60, forceStop: false };
const MAC = "BC:24:11:00:00:01";

function liveGuest(extra: Record<string, string | number> = {}) {
  const config = {
    name: "web",
    memory: "2048",
    scsi0: "local-lvm:vm-120-disk-0,size=8G",
    sata0: "local-lvm:vm-120-disk-1,size=4G",
    net0: `virtio=${MAC},bridge=vmbr0`,
    digest: "d1",
    ...extra,
  };
  return liveVmFromConfig({ vmid: 120, node: "pve1", status: "running" }, config);
}

function spec(change: (vm: DesiredVm) => void = () => {}): DesiredVm {
  const vm: DesiredVm = {
    kind: "qemu",
    key: "web",
    name: "web",
    vmid: 120,
    node: "pve1",
    options: { memory: "2048" },
    disks: [
      { slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 8 * GIB, options: {} },
      { slot: "sata0", kind: "disk", storage: "local-lvm", sizeBytes: 4 * GIB, options: {} },
    ],
    nics: [{ slot: "net0", model: "virtio", bridge: "vmbr0", options: {} }],
    special: {},
  };
  change(vm);
  return vm;
}

function steps(vm: DesiredVm, live = liveGuest()) {
  const plan = planUpdate(vm, live, power);
  assert.deepEqual(plan.errors, []);
  return plan.steps.map((s) => ({ action: s.action, severity: s.severity, pending: s.pendingUntilReboot === true, summary: s.summary }));
}

describe("NIC changes on a running guest", () => {
  it("a model change hot-unplugs the NIC: service-impact, applied now (no reboot)", () => {
    const got = steps(spec((vm) => (vm.nics[0]!.model = "e1000")));
    assert.equal(got.length, 1);
    assert.equal(got[0]!.action, "nic-change");
    assert.equal(got[0]!.severity, "service-impact");
    assert.equal(got[0]!.pending, false);
    assert.match(got[0]!.summary, /hot-unplugged and plugged again/);
  });

  it("a model change without network hotplug waits for a reboot (service-impact, reboot planned)", () => {
    const got = steps(
      spec((vm) => (vm.nics[0]!.model = "e1000")),
      liveGuest({ hotplug: "disk" }),
    );
    assert.deepEqual(
      got.map((s) => [s.action, s.severity, s.pending]),
      [
        ["nic-change", "service-impact", true],
        ["reboot", "service-impact", false],
      ],
    );
  });

  it("an MTU or queues change replaces the device too", () => {
    const got = steps(spec((vm) => (vm.nics[0]!.options = { mtu: "9000" })));
    assert.equal(got[0]!.severity, "service-impact");
  });

  it("bridge and VLAN tag are changed in place, even without network hotplug: configuration, no reboot", () => {
    const got = steps(
      spec((vm) => {
        vm.nics[0]!.bridge = "vmbr1";
        vm.nics[0]!.options = { tag: "20" };
      }),
      liveGuest({ hotplug: "0" }),
    );
    assert.deepEqual(
      got.map((s) => [s.action, s.severity, s.pending]),
      [["nic-change", "configuration", false]],
    );
  });

  it("link_down, rate and firewall apply to the running NIC at once", () => {
    const got = steps(spec((vm) => (vm.nics[0]!.options = { link_down: "1", rate: "100", firewall: "1" })));
    assert.deepEqual(
      got.map((s) => [s.action, s.severity, s.pending]),
      [["nic-change", "configuration", false]],
    );
  });
});

describe("disk changes on a running guest", () => {
  it("backup/replicate are written at once on any bus: configuration, no reboot", () => {
    const got = steps(
      spec((vm) => {
        vm.disks[0]!.options = { backup: "0" };
        vm.disks[1]!.options = { replicate: "0" };
      }),
    );
    assert.deepEqual(
      got.map((s) => [s.action, s.severity, s.pending]),
      [
        ["disk-options", "configuration", false],
        ["disk-options", "configuration", false],
      ],
    );
  });

  it("cache, discard, ssd, aio, iothread wait for a reboot", () => {
    const cases: Array<Record<string, string>> = [
      { cache: "writeback" },
      { discard: "on" },
      { ssd: "1" },
      { aio: "native" },
      { iothread: "1" },
    ];
    for (const options of cases) {
      const got = steps(spec((vm) => (vm.disks[0]!.options = options)));
      assert.deepEqual(
        got.map((s) => [s.action, s.severity, s.pending]),
        [
          ["disk-options", "service-impact", true],
          ["reboot", "service-impact", false],
        ],
        JSON.stringify(options),
      );
    }
  });

  it("detaching a disk from a running guest hot-unplugs it: service-impact", () => {
    const got = steps(
      spec((vm) => {
        vm.disks = [vm.disks[1]!];
        vm.detach = ["scsi0"];
      }),
    );
    assert.equal(got[0]!.action, "disk-detach");
    assert.equal(got[0]!.severity, "service-impact");
    assert.equal(got[0]!.pending, false);
    assert.match(got[0]!.summary, /hot-unplugged/);
  });

  it("detaching a disk of a stopped guest is configuration", () => {
    const stopped = liveVmFromConfig(
      { vmid: 120, node: "pve1", status: "stopped" },
      {
        name: "web",
        memory: "2048",
        scsi0: "local-lvm:vm-120-disk-0,size=8G",
        sata0: "local-lvm:vm-120-disk-1,size=4G",
        net0: `virtio=${MAC},bridge=vmbr0`,
      },
    );
    const got = steps(
      spec((vm) => {
        vm.disks = [vm.disks[1]!];
        vm.detach = ["scsi0"];
      }),
      stopped,
    );
    assert.deepEqual(
      got.map((s) => [s.action, s.severity]),
      [["disk-detach", "configuration"]],
    );
  });
});

describe("plain options on a running guest", () => {
  it("cpulimit and cpuunits apply at once through the cgroup", () => {
    const got = steps(spec((vm) => Object.assign(vm.options, { cpulimit: "2", cpuunits: "200" })));
    assert.deepEqual(
      got.map((s) => [s.action, s.severity, s.pending]),
      [["config", "configuration", false]],
    );
  });

  it("a new balloon target applies at once without memory hotplug; switching the balloon off waits", () => {
    const target = steps(spec((vm) => (vm.options.balloon = "1024")));
    assert.deepEqual(
      target.map((s) => [s.action, s.severity]),
      [["config", "configuration"]],
    );
    const off = steps(spec((vm) => (vm.options.balloon = "0")));
    assert.deepEqual(
      off.map((s) => [s.action, s.severity]),
      [
        ["config-pending", "service-impact"],
        ["reboot", "service-impact"],
      ],
    );
  });

  it("hotplug itself applies at once unless memory hotplug is switched", () => {
    const usb = steps(spec((vm) => (vm.options.hotplug = "network,disk")));
    assert.deepEqual(
      usb.map((s) => [s.action, s.severity]),
      [["config", "configuration"]],
    );
    const memory = steps(spec((vm) => (vm.options.hotplug = "network,disk,memory")));
    assert.deepEqual(
      memory.map((s) => s.action),
      ["config-pending", "reboot"],
    );
  });

  it("a USB device is hot-plugged with the usb hotplug feature, and waits for a reboot without it", () => {
    const usb = "host=1234:5678";
    const live = steps(spec((vm) => (vm.options.usb0 = usb)));
    assert.deepEqual(
      live.map((s) => [s.action, s.severity]),
      [["config", "configuration"]],
    );
    const later = steps(
      spec((vm) => (vm.options.usb0 = usb)),
      liveGuest({ hotplug: "network,disk" }),
    );
    assert.deepEqual(
      later.map((s) => s.action),
      ["config-pending", "reboot"],
    );
  });

  it("cores still wait for a reboot", () => {
    const got = steps(spec((vm) => (vm.options.cores = "4")));
    assert.deepEqual(
      got.map((s) => s.action),
      ["config-pending", "reboot"],
    );
  });
});
