// A property string means the same whatever order its keys are written in: a spec that writes
// `ipconfig0: ip=...,gw=...` or `startup: up=30,order=1` plans nothing against a guest whose
// config holds the same parts in another order (proxmox_kvm and people write them in theirs;
// PVE stores what it was given). Compared parsed, for VMs and containers alike.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { planUpdateCt } from "../../src/resources/lxc/diff.js";
import { liveCtFromConfig } from "../../src/resources/lxc/read.js";
import { planUpdate } from "../../src/resources/qemu/diff.js";
import { liveVmFromConfig } from "../../src/resources/qemu/read.js";
import { desiredCtFromSpec } from "../../src/resources/lxc/spec-desired.js";
import { desiredVmFromSpec } from "../../src/resources/qemu/spec-desired.js";
import { parseSpec } from "../../src/sources/spec/index.js";

const power = { shutdownTimeoutSeconds: 60, forceStop: false };

/** VM keys whose values are property strings, with the parts of one value. */
const VM_VALUES: Record<string, string[]> = {
  ipconfig0: ["ip=10.0.10.21/24", "gw=10.0.10.1", "ip6=fd00::21/64", "gw6=fd00::1"],
  startup: ["order=2", "up=30", "down=60"],
  vga: ["type=qxl", "memory=32"],
  rng0: ["source=/dev/urandom", "max_bytes=1024", "period=1000"],
};
const CT_VALUES: Record<string, string[]> = {
  startup: ["order=2", "up=30", "down=60"],
};

/** Two orders of the same parts. */
const twoOrders = (parts: string[]) =>
  fc.tuple(fc.shuffledSubarray(parts, { minLength: parts.length }), fc.shuffledSubarray(parts, { minLength: parts.length }));

function ipconfigYaml(value: string): string {
  return `{ ${value
    .split(",")
    .map((p) => p.replace("=", ": "))
    .join(", ")} }`;
}

describe("property strings compared parsed", () => {
  for (const [key, parts] of Object.entries(VM_VALUES)) {
    it(`a VM's ${key} in another key order plans nothing`, () => {
      fc.assert(
        fc.property(twoOrders(parts), ([written, stored]) => {
          const vms = parseSpec(vmSpecText(key, written.join(",")), "t.yaml").vms;
          const desired = desiredVmFromSpec(vms[0]!);
          const live = liveVmFromConfig(
            { vmid: 130, node: "pve1", status: "stopped" },
            {
              name: "t",
              tags: "pvectl",
              net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0",
              ...(key.startsWith("ipconfig") ? { ide2: "local-lvm:vm-130-cloudinit,media=cdrom" } : {}),
              [key]: stored.join(","),
            },
          );
          const plan = planUpdate(desired, live, power);
          assert.deepEqual(
            plan.steps.map((s) => s.summary),
            [],
          );
        }),
        { numRuns: 30 },
      );
    });
  }

  for (const [key, parts] of Object.entries(CT_VALUES)) {
    it(`a container's ${key} in another key order plans nothing`, () => {
      fc.assert(
        fc.property(twoOrders(parts), ([written, stored]) => {
          const text = ["containers:", "  - vmid: 200", "    hostname: c", "    node: pve1", `    ${key}: "${written.join(",")}"`].join(
            "\n",
          );
          const desired = desiredCtFromSpec(parseSpec(text, "t.yaml").containers![0]!);
          const live = liveCtFromConfig(
            { vmid: 200, node: "pve1", status: "stopped" },
            { hostname: "c", tags: "pvectl", [key]: stored.join(",") },
          );
          const plan = planUpdateCt(desired, live, power);
          assert.deepEqual(
            plan.steps.map((s) => s.summary),
            [],
          );
        }),
        { numRuns: 30 },
      );
    });
  }
});

function vmSpecText(key: string, value: string): string {
  const lines = [
    "vms:",
    "  - vmid: 130",
    "    name: t",
    "    node: pve1",
    "    nics: { net0: { bridge: vmbr0, macaddr: 'BC:24:11:00:00:01' } }",
  ];
  if (key.startsWith("ipconfig"))
    lines.push("    cloudInit:", "      storage: local-lvm", `      ipconfig: { ${key}: ${ipconfigYaml(value)} }`);
  else lines.push(`    extraConfig: { ${key}: "${value}" }`);
  return `${lines.join("\n")}\n`;
}
