// A VM made by cloning another (`clone:` in the spec): one clone step, then the steps that
// converge the copy to the spec, in the same plan. The follow-ups are the ordinary update diff,
// computed against the source's config as PVE will copy it (qemu-server's clone_vm): every key
// but the template flag, unusedN and locks; each NIC with a new MAC; each disk as a new volume
// of the new vmid (on `storage` for a full clone that names one, else where the source's is);
// the name from the call. The clone is stopped. Its vmid, and its volumes' names, are known
// only once it exists, so the follow-ups say `{vmid}` and `{volume:SLOT}` and the step runner
// fills them in.
import type { GuestPlan, Step, StepDraft } from "../../plan/types.js";
import {
  type CloneSourceFacts,
  clonedVolumeRef,
  cloneTagStep,
  cloneSourceFacts,
  cloneStep,
  copiedOptions,
  isFullClone,
  UNKNOWN_VMID,
  withVmidPlaceholder,
} from "../clone-step.js";
import type { CloneSpec } from "../kind.js";
import { qemuCalls } from "./calls.js";
import { planNewGuest, planUpdate } from "./diff.js";
import { ipconfigNicErrors } from "./ipconfig-nics.js";
import type { DesiredVm, LiveDisk, LiveVm } from "./model.js";
import { ALLOCATED_VMID } from "../api-paths.js";

/** The source's disks as the clone will hold them. */
function clonedDisks(source: LiveVm, full: boolean, storage: string | undefined): Record<string, LiveDisk> {
  const out: Record<string, LiveDisk> = {};
  for (const [slot, disk] of Object.entries(source.disks)) {
    // A CD-ROM's image is shared, not copied.
    if (disk.kind === "cdrom" || disk.storage === undefined) {
      out[slot] = disk;
      continue;
    }
    // The copy's format is PVE's choice on its storage: not known until it exists.
    const { format: _format, ...rest } = disk;
    out[slot] = { ...rest, volume: clonedVolumeRef(slot), storage: full && storage !== undefined ? storage : disk.storage };
  }
  return out;
}

/** The clone as it will be right after PVE's clone task: what the follow-ups are diffed against. */
export function predictClone(vm: DesiredVm, clone: CloneSpec, source: LiveVm): LiveVm {
  const options = copiedOptions(source.options);
  const nics = Object.fromEntries(Object.entries(source.nics).map(([slot, { macaddr: _mac, ...nic }]) => [slot, nic]));
  return {
    kind: "qemu",
    vmid: vm.vmid ?? UNKNOWN_VMID,
    node: vm.node,
    name: vm.name,
    status: "stopped",
    template: false,
    options,
    tags: source.tags,
    disks: clonedDisks(source, isFullClone(clone, source), clone.storage),
    nics,
    unused: {},
    pendingKeys: [],
    hotplug: source.hotplug,
    ...(vm.pool !== undefined && vm.pool !== "" ? { pool: vm.pool } : {}),
  };
}

/** The source's volumes the clone copies: disks on a storage (a CD-ROM's image is shared). */
function sourceFacts(source: LiveVm): CloneSourceFacts {
  return cloneSourceFacts(
    source,
    Object.values(source.disks)
      .filter((d) => d.kind !== "cdrom" && d.storage !== undefined)
      .map((d) => ({ slot: d.slot, storage: d.storage!, ...(d.sizeBytes !== undefined ? { sizeBytes: d.sizeBytes } : {}) })),
  );
}

/** The plan of a VM the spec clones: the clone, then what makes the copy match the spec. */
export function planClone(vm: DesiredVm, clone: CloneSpec, source: LiveVm): GuestPlan {
  const missing = ipconfigNicErrors(
    vm,
    source.nics,
    `its clone source ${source.name ?? source.vmid} (vmid ${source.vmid})`,
    "so the clone's NICs are its source's",
  );
  if (missing.length > 0) return planNewGuest(vm, [], missing);
  const copy = predictClone(vm, clone, source);
  const drafts: StepDraft[] = [cloneStep("qemu", "name", vm, clone, sourceFacts(source))];
  const tagging = cloneTagStep(qemuCalls.config, copy, vm.vmid ?? ALLOCATED_VMID);
  if (tagging.step) drafts.push(tagging.step);
  copy.tags = tagging.tags;
  const update = planUpdate(vm, copy, { shutdownTimeoutSeconds: 0, forceStop: false });
  if (update.errors.length > 0)
    return planNewGuest(
      vm,
      [],
      update.errors.map((e) => `after the clone: ${e}`),
    );
  drafts.push(...update.steps.map(({ id: _id, ...draft }) => withVmidPlaceholder(draft, vm.vmid)));
  const steps: Step[] = drafts.map((draft, i) => ({ id: `${vm.key}/${i + 1}-${draft.action}`, ...draft }));
  const plan = planNewGuest(vm, steps);
  plan.warnings.push(...update.warnings);
  return plan;
}
