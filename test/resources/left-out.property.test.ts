// Property: for any live guest (the shared fixture configs and generated ones) and a spec that
// names only vmid, name, node plus a random subset of keys and sections, the plan touches
// nothing outside that subset: no FieldChange, no call parameter, no device step for a key or
// slot the spec left out. Deterministic (fixed seed); fast-check prints the seed and the
// smallest counterexample on failure.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import type { LiveVm } from "../../src/resources/qemu/model.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { readConfigFixture } from "./config-fixture.js";
import { specEntry, touched } from "./left-out-model.js";

const SEED = 20261202;
const NUM_RUNS = 400;

// ---- live guests ----

const FIXTURES = [
  ...readdirSync(new URL("../fixtures/pve-configs/", import.meta.url))
    .filter((f) => f.startsWith("qemu__") && f.endsWith(".conf"))
    .map((f) => readConfigFixture(`../../fixtures/pve-configs/${f}`)),
  readConfigFixture("cfg2cmd__simple1.conf"),
  readConfigFixture("parse-config-input__snapshots.conf"),
];

const tagList = fc.subarray(["prod", "web", "db", "pvectl", "team-a"]).map((t) => t.join(";"));

/** A config another tool might have written: any mix of the keys a spec can manage. */
const generatedConfig = fc.record(
  {
    name: fc.constantFrom("web", "db1", "legacy"),
    tags: tagList,
    memory: fc.constantFrom(512, 2048, 4096),
    cores: fc.integer({ min: 1, max: 8 }),
    description: fc.constantFrom("made by hand", "terraform"),
    onboot: fc.constantFrom(0, 1),
    agent: fc.constantFrom("1", "enabled=0", "1,fstrim_cloned_disks=1"),
    boot: fc.constant("order=scsi0;net0"),
    startup: fc.constant("order=2"),
    hotplug: fc.constantFrom("network,disk,usb", "0", "network,disk,cpu,memory"),
    scsi0: fc.constant("local-lvm:vm-300-disk-0,size=8G"),
    scsi1: fc.constant("local-lvm:vm-300-disk-1,size=4G,iothread=1"),
    ide2: fc.constantFrom("local-lvm:vm-300-cloudinit,media=cdrom", "none,media=cdrom", "local:iso/debian.iso,media=cdrom"),
    ide3: fc.constant("none,media=cdrom"),
    net0: fc.constantFrom("virtio=BC:24:11:00:00:01,bridge=vmbr0", "e1000=BC:24:11:00:00:02,bridge=vmbr1,tag=20,firewall=1"),
    net1: fc.constant("virtio=BC:24:11:00:00:03,bridge=vmbr0"),
    ciuser: fc.constant("debian"),
    ipconfig0: fc.constant("ip=10.0.0.5/24,gw=10.0.0.1"),
    efidisk0: fc.constant("local-lvm:vm-300-disk-2,efitype=4m,size=4M"),
    bios: fc.constantFrom("seabios", "ovmf"),
    unused0: fc.constant("local-lvm:vm-300-disk-9"),
  },
  { requiredKeys: ["name"] },
);

const liveGuest = fc
  .record({
    config: fc.oneof(fc.constantFrom(...FIXTURES), generatedConfig),
    status: fc.constantFrom("running" as const, "stopped" as const),
    pool: fc.option(fc.constantFrom("prod", "dev"), { nil: undefined }),
    pendingCount: fc.nat({ max: 3 }),
  })
  .map(({ config, status, pool, pendingCount }): LiveVm => {
    const meta = { vmid: 300, node: "pve1", status, ...(pool !== undefined ? { pool } : {}) };
    // Some keys already wait for a reboot: a reboot may only be planned for keys the spec manages.
    const pending = Object.keys(config)
      .filter((k) => k !== "digest")
      .slice(0, pendingCount);
    return liveVmFromConfig(meta, { ...config, digest: "d" }, pending);
  });

describe("a plan touches only what the spec names (property)", () => {
  it(`holds for ${NUM_RUNS} random live guests and partial specs (seed ${SEED})`, () => {
    fc.assert(
      fc.property(liveGuest, specEntry, (live, entry) => {
        const parsed = parseSpec(JSON.stringify({ vms: [entry] }), "property.yaml");
        const vm = desiredVmFromSpec(parsed.vms[0]!);
        const allowed = new Set(["name", ...Object.keys(entry)]);
        const plan = planUpdate(vm, live, { shutdownTimeoutSeconds: 60, forceStop: false });
        for (const step of plan.steps) {
          const outside = touched(step, live, vm).filter((s) => !allowed.has(s));
          assert.deepEqual(outside, [], `step "${step.summary}" touches ${outside.join(", ")}, which the spec leaves out`);
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
