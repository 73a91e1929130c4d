import { plannedParams } from "../../src/plan/resolve-call.js";
// The live side is read with PVE's own schema (src/pve), so every spelling PVE accepts in a
// stored config compares equal to the spec's canonical value: no change is planned for it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import type { DesiredVm } from "../../src/resources/qemu/model.js";

const GIB = 1024 ** 3;
const power = { shutdownTimeoutSeconds: 60, forceStop: false };

function desiredVm(): DesiredVm {
  return {
    kind: "qemu",
    key: "db",
    name: "db",
    vmid: 120,
    node: "pve1",
    options: { agent: "1,freeze-fs=0" },
    tags: ["db", "prod"],
    disks: [
      { slot: "scsi0", kind: "disk", storage: "local-lvm", sizeBytes: 32 * GIB, options: { ssd: "1", iothread: "1", discard: "on" } },
    ],
    nics: [{ slot: "net0", model: "virtio", bridge: "vmbr0", macaddr: "BC:24:11:AA:BB:CC", options: { firewall: "1" } }],
    special: {},
  };
}

const SPELLED_DIFFERENTLY = {
  name: "db",
  // `ssd=on`, `iothread=yes`, `volume=` alias and a size in M: all PVE's, all the same values.
  scsi0: "volume=local-lvm:vm-120-disk-0,ssd=on,iothread=yes,discard=on,size=32768M",
  // Explicit model= and macaddr= keys, MAC in lower case; `firewall=true`.
  net0: "model=virtio,macaddr=bc:24:11:aa:bb:cc,bridge=vmbr0,firewall=true",
  // The older alias of freeze-fs.
  agent: "enabled=1,guest-fsfreeze=0",
  tags: "prod db;db",
};

describe("live values in PVE's other spellings", () => {
  it("plans nothing when every value only differs in spelling", () => {
    const live = liveVmFromConfig({ vmid: 120, node: "pve1", status: "stopped" }, SPELLED_DIFFERENTLY);
    assert.deepEqual(live.disks.scsi0, {
      slot: "scsi0",
      kind: "disk",
      volume: "local-lvm:vm-120-disk-0",
      storage: "local-lvm",
      sizeBytes: 32 * GIB,
      format: "raw",
      options: { ssd: "1", iothread: "1", discard: "on" },
    });
    assert.deepEqual(live.nics.net0, {
      slot: "net0",
      model: "virtio",
      macaddr: "BC:24:11:AA:BB:CC",
      bridge: "vmbr0",
      options: { firewall: "1" },
    });
    assert.deepEqual(live.tags, ["db", "prod"]);
    const plan = planUpdate(desiredVm(), live, power);
    assert.deepEqual([plan.steps, plan.errors], [[], []]);
  });

  it("writes a changed drive and NIC back in PVE's own form (volume first, size in PVE units, model=MAC)", () => {
    const live = liveVmFromConfig({ vmid: 120, node: "pve1", status: "stopped" }, SPELLED_DIFFERENTLY);
    const vm = desiredVm();
    vm.disks[0]!.options.cache = "writeback";
    vm.nics[0]!.options.tag = "30";
    const calls = planUpdate(vm, live, power).steps.map((s) => (s.calls[0] ? plannedParams(s.calls[0]) : undefined));
    assert.deepEqual(calls, [
      { scsi0: "local-lvm:vm-120-disk-0,cache=writeback,discard=on,iothread=1,size=32G,ssd=1" },
      { net0: "virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,firewall=1,tag=30" },
    ]);
  });

  it("keeps a drive PVE's schema refuses by its volume instead of failing the whole read", () => {
    const live = liveVmFromConfig({ vmid: 120, node: "pve1", status: "stopped" }, { scsi0: "local-lvm:vm-120-disk-0,colour=blue" });
    assert.equal(live.disks.scsi0?.volume, "local-lvm:vm-120-disk-0");
    assert.equal(live.disks.scsi0?.storage, "local-lvm");
  });
});
