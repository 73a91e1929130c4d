// Whole-guest steps: create and destroy (adopt, start, stop and reboot: ../guest-steps.ts).
import type { FieldChange, ParamValue, StepDraft } from "../../plan/types.js";
import { volumeOf } from "../../pve/index.js";
import { qemuCalls } from "./calls.js";
import { importGrowCalls } from "./disk-diff.js";
import { cdromString, describeDisk, newVolumeString } from "./disk-values.js";
import type { DesiredVm, LiveVm } from "./model.js";
import { describeNic, printDesiredNic } from "./nic-diff.js";
import { displayValue, writeValue } from "./options.js";
import { ALLOCATED_VMID } from "../api-paths.js";
import { createdTags } from "../placement-record.js";

/** The POST /nodes/{node}/qemu call that creates `vm` (vmid filled in at apply time when allocated). */
export function createStep(vm: DesiredVm): StepDraft {
  const params: Record<string, ParamValue> = { name: vm.name };
  const changes: FieldChange[] = [{ field: "name", after: vm.name }];
  if (vm.vmid !== undefined) params.vmid = vm.vmid;
  for (const [key, value] of Object.entries(vm.options).sort(([a], [b]) => a.localeCompare(b))) {
    params[key] = writeValue(key, value);
    changes.push({ field: key, after: displayValue(key, value) });
  }
  // The ownership tag and the record of the node pvectl placed it on (placement-record.ts).
  params.tags = createdTags(vm.tags, vm.node);
  changes.push({ field: "tags", after: params.tags });
  for (const disk of vm.disks) {
    params[disk.slot] = disk.kind === "cdrom" ? cdromString(disk) : newVolumeString(disk);
    const what = disk.kind === "disk" && disk.importFrom === undefined ? `new ${describeDisk(disk)}` : describeDisk(disk);
    changes.push({ field: disk.slot, after: what });
  }
  for (const [key, value] of Object.entries(vm.special)) {
    params[key] = value;
    changes.push({ field: key, after: `new ${value}` });
  }
  for (const nic of vm.nics) {
    params[nic.slot] = printDesiredNic(nic);
    changes.push({ field: nic.slot, after: describeNic(nic) });
  }
  if (vm.pool !== undefined && vm.pool !== "") {
    params.pool = vm.pool;
    changes.push({ field: "pool", after: vm.pool });
  }
  // Starting inside the create task saves a round trip and a second task per guest.
  if (vm.power === "running") params.start = 1;
  const where = vm.vmid !== undefined ? `vmid ${vm.vmid}` : "vmid allocated at apply";
  return {
    action: "create",
    severity: "configuration",
    summary: `create ${vm.name} on ${vm.node} (${where})${vm.power === "running" ? " and start it" : ""}`,
    changes,
    // Disks imported from a smaller image are grown to the size asked, in the same step.
    calls: [qemuCalls.create(vm.node, params), ...importGrowCalls(vm.disks, vm.node, vm.vmid ?? ALLOCATED_VMID)],
  };
}

/**
 * The vmid a volume belongs to by its name (`vm-100-disk-0`, `base-100-disk-0`,
 * `local:100/vm-100-disk-0.qcow2`, a linked clone's `base-9000-disk-0/vm-100-disk-1`: 100).
 * PVE's destroy frees only the volumes the guest owns; a volume of another guest attached
 * here survives it.
 */
export function volumeOwner(volume: string): number | undefined {
  const name = (volume.split(":")[1] ?? "").split("/").pop() ?? "";
  const m = /^(?:vm|base)-(\d+)-/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/**
 * The volumes a destroy frees when the guest owns them (resources/destroy-plan.ts decides by
 * owner), as qemu-server's destroy_vm does it: every drive that is not a CD-ROM (the cloud-init
 * drive included), EFI vars, TPM state and `unusedN` volumes; CD-ROM images and host paths are
 * kept.
 */
export function qemuDestroyedVolumes(live: LiveVm): string[] {
  const referenced: string[] = [];
  for (const disk of Object.values(live.disks)) if (disk.kind !== "cdrom") referenced.push(disk.volume);
  for (const key of ["efidisk0", "tpmstate0"]) {
    const value = live.options[key];
    const volume = value !== undefined ? volumeOf(value) : undefined;
    if (volume !== undefined) referenced.push(volume);
  }
  referenced.push(...Object.values(live.unused));
  return referenced.filter((volume) => volume.includes(":")); // a host path (/dev/...): never PVE's to free
}
