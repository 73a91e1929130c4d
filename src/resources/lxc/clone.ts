// A container made by cloning another (`clone:` under `containers:`), as pve-container's
// clone_vm copies it: the config but the template flag, unusedN and locks; each mount point's
// volume copied (full, onto `storage` when named) or linked to the template's base volume;
// every NIC with a new MAC; `hostname` from the call; stopped. Then the ordinary update diff
// against that copy converges the rest in the same plan (see qemu/clone.ts).
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
import { lxcCalls } from "./calls.js";
import { planNewCt, planUpdateCt } from "./diff.js";
import type { DesiredCt, LiveCt, LiveMount } from "./model.js";
import { ALLOCATED_VMID } from "../api-paths.js";

function clonedMounts(source: LiveCt, full: boolean, storage: string | undefined): Record<string, LiveMount> {
  const out: Record<string, LiveMount> = {};
  for (const [slot, mount] of Object.entries(source.mounts)) {
    out[slot] = {
      ...mount,
      volume: clonedVolumeRef(slot),
      ...(mount.storage !== undefined ? { storage: full && storage !== undefined ? storage : mount.storage } : {}),
    };
  }
  return out;
}

/** The container as it will be right after PVE's clone task. */
export function predictCtClone(ct: DesiredCt, clone: CloneSpec, source: LiveCt): LiveCt {
  const options = copiedOptions(source.options);
  const nics = Object.fromEntries(Object.entries(source.nics).map(([slot, { hwaddr: _mac, ...nic }]) => [slot, nic]));
  return {
    kind: "lxc",
    vmid: ct.vmid ?? UNKNOWN_VMID,
    node: ct.node,
    name: ct.name,
    status: "stopped",
    template: false,
    options,
    tags: source.tags,
    mounts: clonedMounts(source, isFullClone(clone, source), clone.storage),
    nics,
    unused: {},
    pendingKeys: [],
    ...(ct.pool !== undefined && ct.pool !== "" ? { pool: ct.pool } : {}),
  };
}

/** The source's volumes the clone copies: mount points on a storage (bind mounts are refused before). */
function sourceFacts(source: LiveCt): CloneSourceFacts {
  return cloneSourceFacts(
    source,
    Object.values(source.mounts).flatMap((m) =>
      m.storage !== undefined
        ? [{ slot: m.slot, storage: m.storage, ...(m.sizeBytes !== undefined ? { sizeBytes: m.sizeBytes } : {}) }]
        : [],
    ),
  );
}

/** The plan of a container the spec clones: the clone, then what makes the copy match the spec. */
export function planCtClone(ct: DesiredCt, clone: CloneSpec, source: LiveCt): GuestPlan {
  // pve-container refuses to clone a bind mount (`unable to clone mountpoint 'mp0' (type bind)`).
  const binds = Object.values(source.mounts)
    .filter((m) => m.storage === undefined)
    .map((m) => m.slot);
  if (binds.length > 0)
    return planNewCt(
      ct,
      [],
      [
        `clone.from: PVE cannot clone container ${source.vmid}: ${binds.join(", ")} ${binds.length > 1 ? "are bind mounts" : "is a bind mount"}`,
      ],
    );
  const copy = predictCtClone(ct, clone, source);
  const drafts: StepDraft[] = [cloneStep("lxc", "hostname", ct, clone, sourceFacts(source))];
  const tagging = cloneTagStep(lxcCalls.config, copy, ct.vmid ?? ALLOCATED_VMID);
  if (tagging.step) drafts.push(tagging.step);
  copy.tags = tagging.tags;
  const update = planUpdateCt(ct, copy, { shutdownTimeoutSeconds: 0, forceStop: false });
  if (update.errors.length > 0)
    return planNewCt(
      ct,
      [],
      update.errors.map((e) => `after the clone: ${e}`),
    );
  drafts.push(...update.steps.map(({ id: _id, ...draft }) => withVmidPlaceholder(draft, ct.vmid)));
  const steps: Step[] = drafts.map((draft, i) => ({ id: `${ct.key}/${i + 1}-${draft.action}`, ...draft }));
  return planNewCt(ct, steps, [], update.warnings);
}
