// One guest, desired vs live -> ordered steps. Order: stop (when the spec wants the guest
// stopped, so later changes apply at once), config, disks, NICs, start, reboot for pending.

import { isPvectlTag, userTags } from "../placement-record.js";
import type { TemplateVolume } from "../../plan/intent.js";
import type { FieldChange, GuestPlan, Step, StepDraft } from "../../plan/types.js";
import { printTags } from "../formats.js";
import { rebootStep, startStep, withIds } from "../guest-steps.js";
import { markHostAccess } from "../host-access.js";
import type { UpdateOptions } from "../kind.js";
import { templateStep, templateVolumeErrors, templateVolumes, templateWishErrors } from "../template.js";
import { UnusedSlots } from "../unused-slots.js";
import { revertStep, undoesPending } from "../pending-revert.js";
import { haRestartWarning, openUpdate } from "../update-opening.js";
import { vmMigrationFacts } from "./migration.js";
import { qemuCalls } from "./calls.js";
import { diffDisks } from "./disk-diff.js";
import { vmReachesHost } from "./host-access.js";
import { type DesiredVm, type LiveVm, OWNERSHIP_TAG } from "./model.js";
import { ipconfigNicErrors } from "./ipconfig-nics.js";
import { diffNics } from "./nic-diff.js";
import { appliesLive, displayValue, effectiveOption, writeValue } from "./options.js";
import { createStep } from "./steps.js";
import { ALLOCATED_VMID } from "../api-paths.js";

/** A guest not found live: created by `steps`, or left alone (absent as wanted, or blocked by `errors`). */
export function planNewGuest(vm: DesiredVm, steps: Step[], errors: string[] = []): GuestPlan {
  return {
    key: vm.key,
    name: vm.name,
    ...(vm.vmid !== undefined ? { vmid: vm.vmid } : {}),
    node: vm.node,
    exists: false,
    steps,
    errors,
    warnings: [],
  };
}

/** The disks a conversion makes base volumes of (CD-ROMs and the cloud-init drive are not). */
function vmTemplateVolumes(vm: DesiredVm, live?: LiveVm): TemplateVolume[] {
  const liveDisks = Object.fromEntries(Object.entries(live?.disks ?? {}).filter(([, d]) => d.kind === "disk"));
  return templateVolumes(
    vm.disks.filter((d) => d.kind === "disk"),
    liveDisks,
    vm.unmanaged?.includes("disks") ?? false,
  );
}

/** The plan for a guest the spec describes and that does not exist yet (converted after, when it is to be a template). */
export function planCreate(vm: DesiredVm): GuestPlan {
  const errors = [
    ...templateWishErrors(vm),
    ...ipconfigNicErrors(vm, {}, `new VM ${vm.key}`, "and a VM created without `clone:` gets no other NIC"),
  ];
  if (errors.length > 0) return planNewGuest(vm, [], errors);
  const drafts = [createStep(vm)];
  markHostAccess(drafts, vmReachesHost);
  if (vm.template === true)
    drafts.push(templateStep(vm.name, qemuCalls.template(vm.node, vm.vmid ?? ALLOCATED_VMID, vmTemplateVolumes(vm)), false));
  return planNewGuest(vm, withIds(vm.key, drafts));
}

/** Plain config keys, name and tags: which differ, split into live and pending-until-reboot; pending changes the spec undoes are reverted. */
function configDrafts(vm: DesiredVm, live: LiveVm, running: boolean, adopting: boolean): { drafts: StepDraft[]; reverted: string[] } {
  const reverts: FieldChange[] = [];
  const nowChanges: FieldChange[] = [];
  const laterChanges: FieldChange[] = [];
  const nowParams: Record<string, string> = {};
  const laterParams: Record<string, string> = {};
  const put = (key: string, before: string | undefined, after: string) => {
    const change: FieldChange = {
      field: key,
      ...(before !== undefined ? { before: displayValue(key, before) } : {}),
      after: displayValue(key, after),
    };
    if (!running || appliesLive(key, live.hotplug, { before, after })) {
      nowChanges.push(change);
      nowParams[key] = writeValue(key, after);
    } else {
      laterChanges.push(change);
      laterParams[key] = writeValue(key, after);
    }
  };
  // EFI vars and TPM state: added when missing; an existing one is PVE's to keep.
  for (const [key, value] of Object.entries(vm.special)) {
    if (live.options[key] === undefined) put(key, undefined, value);
  }
  if (live.name !== vm.name) put("name", live.name, vm.name);
  for (const [key, value] of Object.entries(vm.options).sort(([a], [b]) => a.localeCompare(b))) {
    const before = effectiveOption(live.options, key);
    if (undoesPending(live, key, value, effectiveOption))
      reverts.push({
        field: key,
        before: `${before !== undefined ? displayValue(key, before) : "deleted"} (pending)`,
        after: displayValue(key, value),
      });
    else if (before !== value) put(key, before, value);
  }
  const liveTags = userTags(live.tags);
  if (vm.tags !== undefined && printTags(liveTags) !== printTags(vm.tags)) {
    // The ownership tag stays on guests that have it (or are adopted): it is how reruns find them.
    // So does the placement record (the opening steps have brought it up to date).
    const keep = [...live.tags.filter(isPvectlTag), ...(adopting ? [OWNERSHIP_TAG] : [])];
    put("tags", printTags(live.tags) || undefined, printTags([...vm.tags, ...keep]));
  }
  const drafts: StepDraft[] = reverts.length > 0 ? [revertStep(qemuCalls, live, reverts)] : [];
  if (nowChanges.length > 0) {
    drafts.push({
      action: "config",
      severity: "configuration",
      summary: `change ${nowChanges.map((c) => c.field).join(", ")}`,
      changes: nowChanges,
      calls: [qemuCalls.config(live.node, live.vmid, nowParams)],
    });
  }
  if (laterChanges.length > 0) {
    drafts.push({
      action: "config-pending",
      severity: "service-impact",
      summary: `change ${laterChanges.map((c) => c.field).join(", ")} (pending until reboot: the guest is running)`,
      changes: laterChanges,
      calls: [qemuCalls.config(live.node, live.vmid, laterParams)],
      pendingUntilReboot: true,
    });
  }
  return { drafts, reverted: reverts.map((c) => c.field) };
}

/** The plan for a guest that exists: the differences only. */
export function planUpdate(vm: DesiredVm, found: LiveVm, options: UpdateOptions): GuestPlan {
  const opening = openUpdate(qemuCalls, vm, found, options, "VM", vmMigrationFacts(found));
  const { errors, warnings, drafts, adopting, converting, running } = opening;
  // Every later step runs where the opening leaves the guest (migrated to the spec's node), on the tags it leaves.
  const live: LiveVm = { ...found, node: opening.node, tags: opening.tags };
  errors.push(...ipconfigNicErrors(vm, live.nics, `vmid ${live.vmid}`, "so its NICs are the live guest's"));
  const wasRunning = live.status === "running";
  const config = configDrafts(vm, live, running, adopting);
  drafts.push(...config.drafts);
  const disks = diffDisks(vm.disks, live.disks, {
    vmid: live.vmid,
    node: live.node,
    running,
    hotplug: live.hotplug,
    detach: vm.detach ?? [],
    ...(vm.unmanaged !== undefined ? { unmanaged: vm.unmanaged } : {}),
    unused: new UnusedSlots(live.unused),
    snapshotted: live.snapshotted === true,
  });
  errors.push(...disks.errors);
  warnings.push(...disks.warnings);
  drafts.push(...disks.steps);
  drafts.push(
    ...diffNics(vm.nics, live.nics, {
      vmid: live.vmid,
      node: live.node,
      running,
      hotplug: live.hotplug,
      keepUnlisted: vm.unmanaged?.includes("nics") ?? false,
    }),
  );
  errors.push(...templateVolumeErrors(drafts, live));
  if (vm.power === "running" && !running && !live.template) drafts.push(startStep(qemuCalls, live));
  // Last: a template's volumes are left alone, so every change to them lands before.
  if (converting)
    drafts.push(
      templateStep(`${vm.name} (vmid ${live.vmid})`, qemuCalls.template(live.node, live.vmid, vmTemplateVolumes(vm, live)), wasRunning),
    );

  // Changes that wait for a reboot: ours, and those already pending on keys the spec manages.
  if (running) {
    const managed = new Set([
      ...Object.keys(vm.options),
      "name",
      ...(vm.tags !== undefined ? ["tags"] : []),
      ...vm.disks.map((d) => d.slot),
      ...vm.nics.map((n) => n.slot),
    ]);
    const pending = new Set<string>();
    for (const d of drafts) if (d.pendingUntilReboot) for (const c of d.changes) pending.add(c.field.split(".")[0]!);
    for (const key of live.pendingKeys) if (managed.has(key) && !config.reverted.includes(key)) pending.add(key);
    if (pending.size > 0 && opening.ha) warnings.push(haRestartWarning(opening.ha, [...pending].sort(), "reboot"));
    else if (pending.size > 0) drafts.push(rebootStep(qemuCalls, live, [...pending].sort(), "reboot"));
  }
  markHostAccess(drafts, vmReachesHost, live.options);
  return {
    key: vm.key,
    name: vm.name,
    vmid: live.vmid,
    node: live.node,
    exists: true,
    ...(opening.moved !== undefined ? { movedElsewhere: opening.moved } : {}),
    ...(live.digest !== undefined ? { digest: live.digest } : {}),
    steps: errors.length > 0 ? [] : withIds(vm.key, drafts),
    errors,
    warnings,
  };
}
