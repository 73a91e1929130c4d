import { plannedParams, plannedPath } from "../../src/plan/resolve-call.js";
// Shared by the left-out property tests (pure diff and through the simulator): random spec
// entries naming vmid, name, node and a random subset of keys, and what a planned step touches
// in spec terms (the key or section each change and call parameter belongs to).
import fc from "fast-check";
import type { Step } from "../../src/plan/types.js";
import { isDriveSlot } from "../../src/pve/index.js";
import { type DesiredVm, type LiveVm, NIC_SLOT } from "../../src/resources/qemu/model.js";

// ---- specs naming a random subset ----

/** One generator per spec key; each value is valid on its own. */
const KEY_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  cores: fc.integer({ min: 1, max: 8 }),
  sockets: fc.integer({ min: 1, max: 2 }),
  memory: fc.constantFrom(1024, "4G"),
  balloon: fc.constantFrom(0, 512),
  cpu: fc.constantFrom("host", "x86-64-v2-AES"),
  machine: fc.constant("q35"),
  bios: fc.constantFrom("seabios", "ovmf"),
  ostype: fc.constantFrom("l26", "win11"),
  scsihw: fc.constantFrom("virtio-scsi-single", "lsi"),
  onboot: fc.boolean(),
  agent: fc.oneof(fc.boolean(), fc.record({ enabled: fc.boolean(), fstrimClonedDisks: fc.boolean() })),
  tags: fc.subarray(["prod", "web", "new"]),
  description: fc.constantFrom("managed", "made by hand"),
  pool: fc.constantFrom("prod", "dev", ""),
  power: fc.constantFrom("running", "stopped"),
  disks: fc.constantFrom({}, { scsi0: { storage: "local-lvm", size: "8G" } }, { scsi0: { storage: "local-lvm", size: "16G", ssd: true } }),
  cdroms: fc.constantFrom({}, { ide3: {} }, { ide3: { iso: "local:iso/debian.iso" } }),
  nics: fc.constantFrom({}, { net0: { bridge: "vmbr0" } }, { net0: { bridge: "vmbr1", model: "virtio", tag: 30 } }),
  cloudInit: fc.constantFrom({ storage: "local-lvm" }, { storage: "local-lvm", user: "ops", upgrade: false }),
  efidisk: fc.constant({ storage: "local-lvm", efitype: "4m" }),
  tpm: fc.constant({ storage: "local-lvm", version: "v2.0" }),
  extraConfig: fc.constantFrom({ startup: "order=1" }, { numa: 1 }, { protection: 0 }),
};

export const specEntry = fc
  .record({ keys: fc.subarray(Object.keys(KEY_VALUES)), values: fc.record(KEY_VALUES) })
  .map(({ keys, values }) => {
    const vm: Record<string, unknown> = { vmid: 300, name: "web", node: "pve1" };
    for (const key of keys) vm[key] = values[key];
    if (vm.efidisk !== undefined) vm.bios = "ovmf"; // an EFI disk needs OVMF: both are then named
    return vm;
  });

// ---- what a plan touches, in spec terms ----

const CLOUDINIT_KEY = /^(ciuser|cipassword|sshkeys|nameserver|searchdomain|ciupgrade|citype|cicustom|ipconfig\d+)$/;
const OWN_NAME = new Set([
  "name",
  "tags",
  "pool",
  "cores",
  "sockets",
  "cpu",
  "memory",
  "balloon",
  "machine",
  "bios",
  "ostype",
  "scsihw",
  "onboot",
  "agent",
  "description",
  "boot",
]);

/** The spec key or section a config key, slot or change field belongs to. */
function sectionOf(field: string, live: LiveVm, vm: DesiredVm): string {
  const key = field.split(".")[0]!;
  if (key === "status") return "power";
  if (OWN_NAME.has(key)) return key;
  if (key === "efidisk0") return "efidisk";
  // Only a disk moved to another storage lets go of a volume as unusedN (its source, destroyed next).
  if (/^unused\d+$/.test(key)) return "disks";
  if (key === "tpmstate0") return "tpm";
  if (CLOUDINIT_KEY.test(key)) return "cloudInit";
  if (NIC_SLOT.test(key)) return "nics";
  if (isDriveSlot(key)) {
    const kind = live.disks[key]?.kind ?? vm.disks.find((d) => d.slot === key)?.kind;
    return kind === "cdrom" ? "cdroms" : kind === "cloudinit" ? "cloudInit" : "disks";
  }
  return "extraConfig";
}

/** Every spec key a step touches: its changes and every parameter of its calls. */
export function touched(step: Step, live: LiveVm, vm: DesiredVm): string[] {
  const out = step.changes.map((c) => sectionOf(c.field, live, vm));
  for (const call of step.calls) {
    if (plannedPath(call) === "/pools") out.push("pool");
    else if (/\/status\/(start|shutdown|stop)$/.test(plannedPath(call))) out.push("power");
    else if (/\/(resize|move_disk)$/.test(plannedPath(call))) out.push(sectionOf(String(plannedParams(call).disk), live, vm));
    else if (/\/config$/.test(plannedPath(call))) {
      for (const [key, value] of Object.entries(plannedParams(call))) {
        if (key === "force" || key === "digest") continue;
        if (key === "delete")
          out.push(
            ...String(value)
              .split(",")
              .map((k) => sectionOf(k, live, vm)),
          );
        else out.push(sectionOf(key, live, vm));
      }
    }
  }
  return out;
}
