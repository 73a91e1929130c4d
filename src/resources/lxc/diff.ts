// One container, desired vs live -> ordered steps. Order: adopt, pool, stop (when the spec
// wants it stopped, so later changes apply at once), config, mount points, NICs, start, and a
// restart for changes left in `[pve:pending]`.

import { isPvectlTag, userTags } from "../placement-record.js";
import type { TemplateVolume } from "../../plan/intent.js";
import type { FieldChange, GuestPlan, Step, StepDraft } from "../../plan/types.js";
import { printTags } from "../formats.js";
import { rebootStep, startStep, withIds } from "../guest-steps.js";
import { markHostAccess } from "../host-access.js";
import type { UpdateOptions } from "../kind.js";
import { OWNERSHIP_TAG } from "../ownership.js";
import { templateStep, templateVolumeErrors, templateVolumes, templateWishErrors } from "../template.js";
import { UnusedSlots } from "../unused-slots.js";
import { revertStep, undoesPending } from "../pending-revert.js";
import { haRestartWarning, openUpdate } from "../update-opening.js";
import { ctMigrationFacts } from "./migration.js";
import { lxcCalls } from "./calls.js";
import { ctHostValues, ctReachesHost } from "./host-access.js";
import type { DesiredCt, LiveCt } from "./model.js";
import { bindMountWarning, diffMounts } from "./mount-diff.js";
import { diffCtNics } from "./nic-diff.js";
import { ctAppliesLive, effectiveCtOption, isCreateOnly } from "./options.js";
import { rootOnlyWarnings } from "./privileges.js";
import { isHostPath } from "./read.js";
import { createStep } from "./steps.js";
import { ALLOCATED_VMID } from "../api-paths.js";

const PENDING = "applies at the next restart: the container is running";

/** A container not found live: created by `steps`, or left alone (absent as wanted, or blocked by `errors`). */
export function planNewCt(ct: DesiredCt, steps: Step[], errors: string[] = [], warnings: string[] = []): GuestPlan {
  return {
    kind: "lxc",
    key: ct.key,
    name: ct.name,
    ...(ct.vmid !== undefined ? { vmid: ct.vmid } : {}),
    node: ct.node,
    exists: false,
    steps,
    errors,
    warnings,
  };
}

/** The volumes a conversion makes base volumes of: rootfs and storage-backed mount points (not bind mounts). */
function ctTemplateVolumes(ct: DesiredCt, live?: LiveCt): TemplateVolume[] {
  const volumes = Object.fromEntries(Object.entries(live?.mounts ?? {}).filter(([, m]) => !isHostPath(m.volume)));
  return templateVolumes(
    ct.mounts.filter((m) => m.bindPath === undefined),
    volumes,
    ct.unmanaged?.includes("mounts") ?? false,
  );
}

/** The plan for a container the spec describes and that does not exist yet. */
export function planCreateCt(ct: DesiredCt): GuestPlan {
  const errors: string[] = templateWishErrors(ct);
  if (ct.ostemplate === undefined)
    errors.push("a new container needs a template (ostemplate, e.g. local:vztmpl/debian-13-standard_13.0-1_amd64.tar.zst)");
  const rootfs = ct.mounts.find((m) => m.slot === "rootfs");
  if (rootfs?.storage === undefined || rootfs.sizeBytes === undefined)
    errors.push("a new container needs rootfs with a storage and a size (rootfs: { storage, size })");
  for (const m of ct.mounts) {
    if (m.slot !== "rootfs" && m.bindPath === undefined && (m.storage === undefined || m.sizeBytes === undefined)) {
      errors.push(`${m.slot}: a new mount point needs a storage and a size (or a host path for a bind mount)`);
    }
  }
  const warnings = [
    ...ct.mounts.flatMap((m) => (m.bindPath !== undefined ? [bindMountWarning(m.slot, m.bindPath)] : [])),
    ...rootOnlyWarnings(ct.options, { unprivileged: ct.options.unprivileged ?? "1" }),
  ];
  const drafts = [createStep(ct)];
  markHostAccess(drafts, ctReachesHost);
  if (ct.template === true)
    drafts.push(templateStep(`container ${ct.name}`, lxcCalls.template(ct.node, ct.vmid ?? ALLOCATED_VMID, ctTemplateVolumes(ct)), false));
  return planNewCt(ct, errors.length > 0 ? [] : withIds(ct.key, drafts), errors, warnings);
}

/**
 * Plain config keys, hostname and tags: which differ, split into at-once and pending-until-restart;
 * pending changes the spec undoes are reverted (their keys go to `out.reverted`).
 */
function configDrafts(
  ct: DesiredCt,
  live: LiveCt,
  running: boolean,
  adopting: boolean,
  out: { errors: string[]; warnings: string[]; reverted: string[] },
): StepDraft[] {
  const { errors } = out;
  const reverts: FieldChange[] = [];
  const now: { changes: FieldChange[]; params: Record<string, string> } = { changes: [], params: {} };
  const later: { changes: FieldChange[]; params: Record<string, string> } = { changes: [], params: {} };
  const put = (key: string, before: string | undefined, after: string) => {
    const into = !running || ctAppliesLive(key) ? now : later;
    into.changes.push({ field: key, ...(before !== undefined ? { before } : {}), after });
    into.params[key] = after;
  };
  if (live.name !== ct.name) put("hostname", live.name, ct.name);
  for (const [key, value] of Object.entries(ct.options).sort(([a], [b]) => a.localeCompare(b))) {
    const before = effectiveCtOption(live.options, key);
    if (undoesPending(live, key, value, effectiveCtOption)) {
      reverts.push({ field: key, before: `${before ?? "deleted"} (pending)`, after: value });
      continue;
    }
    if (before === value) continue;
    if (isCreateOnly(key)) {
      errors.push(
        `${key} cannot change after the container is created (it is ${before ?? "not set"}, the spec says ${value}; PVE refuses a read-only option); ` +
          "change the spec back, or recreate the container",
      );
    } else put(key, before, value);
  }
  const liveTags = userTags(live.tags);
  if (ct.tags !== undefined && printTags(liveTags) !== printTags(ct.tags)) {
    // The ownership tag stays on containers that have it (or are adopted): it is how reruns find them.
    // So does the placement record (the opening steps have brought it up to date).
    const keep = [...live.tags.filter(isPvectlTag), ...(adopting ? [OWNERSHIP_TAG] : [])];
    put("tags", printTags(live.tags) || undefined, printTags([...ct.tags, ...keep]));
  }
  out.warnings.push(
    ...rootOnlyWarnings(
      { ...now.params, ...later.params },
      { features: live.options.features, unprivileged: effectiveCtOption(live.options, "unprivileged") },
    ),
  );
  out.reverted.push(...reverts.map((c) => c.field));
  const drafts: StepDraft[] = reverts.length > 0 ? [revertStep(lxcCalls, live, reverts)] : [];
  if (now.changes.length > 0) {
    drafts.push({
      action: "config",
      severity: "configuration",
      summary: `change ${now.changes.map((c) => c.field).join(", ")}`,
      changes: now.changes,
      calls: [lxcCalls.config(live.node, live.vmid, now.params)],
    });
  }
  if (later.changes.length > 0) {
    drafts.push({
      action: "config-pending",
      severity: "service-impact",
      summary: `change ${later.changes.map((c) => c.field).join(", ")} (${PENDING})`,
      changes: later.changes,
      calls: [lxcCalls.config(live.node, live.vmid, later.params)],
      pendingUntilReboot: true,
    });
  }
  return drafts;
}

/** The keys the spec manages: a change already pending on one of them also calls for the restart. */
function managedKeys(ct: DesiredCt): Set<string> {
  return new Set([
    ...Object.keys(ct.options),
    "hostname",
    ...(ct.tags !== undefined ? ["tags"] : []),
    ...ct.mounts.map((m) => m.slot),
    ...ct.nics.map((n) => n.slot),
  ]);
}

/** The plan for a container that exists: the differences only. */
export function planUpdateCt(ct: DesiredCt, found: LiveCt, options: UpdateOptions): GuestPlan {
  const opening = openUpdate(lxcCalls, ct, found, options, "container", ctMigrationFacts(found));
  const { errors, warnings, drafts, adopting, converting, running } = opening;
  // Every later step runs where the opening leaves the container (migrated to the spec's node), on the tags it leaves.
  const live: LiveCt = { ...found, node: opening.node, tags: opening.tags };
  const wasRunning = live.status === "running";
  const reverted: string[] = [];
  drafts.push(...configDrafts(ct, live, running, adopting, { errors, warnings, reverted }));
  const mounts = diffMounts(ct.mounts, live.mounts, {
    vmid: live.vmid,
    node: live.node,
    running,
    detach: ct.detach ?? [],
    unused: new UnusedSlots(live.unused),
    snapshotted: live.snapshotted === true,
    ...(ct.unmanaged !== undefined ? { unmanaged: ct.unmanaged } : {}),
  });
  errors.push(...mounts.errors);
  warnings.push(...mounts.warnings);
  drafts.push(...mounts.steps);
  drafts.push(
    ...diffCtNics(ct.nics, live.nics, { vmid: live.vmid, node: live.node, running, keepUnlisted: ct.unmanaged?.includes("nics") ?? false }),
  );
  errors.push(...templateVolumeErrors(drafts, live));
  if (ct.power === "running" && !running && !live.template) drafts.push(startStep(lxcCalls, live));
  // Last: a template's volumes are left alone, so every change to them lands before.
  if (converting)
    drafts.push(
      templateStep(
        `container ${ct.name} (vmid ${live.vmid})`,
        lxcCalls.template(live.node, live.vmid, ctTemplateVolumes(ct, live)),
        wasRunning,
      ),
    );
  if (running) {
    const pending = new Set<string>();
    for (const d of drafts) if (d.pendingUntilReboot) for (const c of d.changes) pending.add(c.field.split(".")[0]!);
    const managed = managedKeys(ct);
    for (const key of live.pendingKeys) if (managed.has(key) && !reverted.includes(key)) pending.add(key);
    if (pending.size > 0 && opening.ha) warnings.push(haRestartWarning(opening.ha, [...pending].sort(), "restart"));
    else if (pending.size > 0) drafts.push(rebootStep(lxcCalls, live, [...pending].sort(), "restart"));
  }
  markHostAccess(drafts, ctReachesHost, ctHostValues(live));
  return {
    kind: "lxc",
    key: ct.key,
    name: ct.name,
    vmid: live.vmid,
    node: live.node,
    exists: true,
    ...(opening.moved !== undefined ? { movedElsewhere: opening.moved } : {}),
    ...(live.digest !== undefined ? { digest: live.digest } : {}),
    steps: errors.length > 0 ? [] : withIds(ct.key, drafts),
    errors,
    warnings,
  };
}
