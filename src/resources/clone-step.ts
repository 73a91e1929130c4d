// The clone step every kind plans the same way (POST …/{source}/clone, `qmclone`/`vzclone`),
// and what its follow-ups share: they are planned against a predicted copy whose vmid is not
// known yet when apply allocates it, so their calls then name ALLOCATED_VMID; a volume the
// copy gets is named by PVE when it copies it, so a call writing it back names it by slot.
import type { CloneIntent, GuestType } from "../plan/intent.js";
import type { ApiCall, BodyValue, FieldChange, ParamValue, StepDraft } from "../plan/types.js";
import { ALLOCATED_VMID, type VmidRef } from "./api-paths.js";
import { GUEST_KINDS } from "./index.js";
import { printTags } from "./formats.js";
import { normaliseTags } from "../pve/index.js";
import { placementTag, withPlacementRecord } from "./placement-record.js";
import type { CloneSpec } from "./kind.js";
import { OWNERSHIP_TAG } from "./ownership.js";

/** The vmid a predicted copy is planned with when apply allocates it; its calls then name ALLOCATED_VMID. */
export const UNKNOWN_VMID = 0;

/** Keys of a snapshot's config that describe the snapshot, not the guest a clone of it gets. */
export const SNAPSHOT_ONLY_KEYS = new Set(["template", "snaptime", "parent", "vmstate", "snapstate", "runningmachine", "runningcpu"]);

/** The source's plain keys as the copy gets them. */
export function copiedOptions(options: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !SNAPSHOT_ONLY_KEYS.has(key)));
}

/**
 * How the predicted copy's model names a cloned volume (its diff compares and shows it like
 * any volume). It never reaches a call's body: the call builders turn it into a typed
 * reference (`bodyOf`), which the runner resolves from the copy's config at apply.
 */
export function clonedVolumeRef(slot: string): string {
  return `{volume:${slot}}`;
}

/** Whether a planned volume is a copy the clone step of this same plan makes (it holds nothing of the user's yet). */
export function isClonedVolumeRef(volume: string): boolean {
  return /^\{volume:\w+\}$/.test(volume);
}

/** A drive or mount point value that starts with a cloned volume: its slot and the options after it. */
const CLONED_VALUE = /^\{volume:(\w+)\}(?:,(.*))?$/s;

/** A config call's parameters as its body: a value on a cloned volume becomes a typed reference to it. */
export function bodyOf(params: Record<string, ParamValue>): Record<string, BodyValue> {
  const body: Record<string, BodyValue> = {};
  for (const [key, value] of Object.entries(params)) {
    const cloned = typeof value === "string" ? CLONED_VALUE.exec(value) : null;
    if (typeof value === "string" && cloned === null && value.includes("{volume:"))
      throw new Error(`${key}: a cloned volume must lead its value (${value})`);
    body[key] = cloned ? { clonedVolume: cloned[1]!, ...(cloned[2] !== undefined ? { options: cloned[2] } : {}) } : value;
  }
  return body;
}

/** The source as the planner read it. */
export interface CloneSourceFacts {
  vmid: number;
  node: string;
  name?: string;
  template: boolean;
  running: boolean;
  /** Volumes the clone copies or links, by slot (CD-ROM images and bind mounts are not copied). */
  volumes: Array<{ slot: string; storage: string; sizeBytes?: number }>;
  bridges: string[];
}

/**
 * The facts of a live source, whatever its kind: `volumes` are those the kind copies (its disks
 * or mount points with a storage); the bridges come from its NICs.
 */
export function cloneSourceFacts(
  source: { vmid: number; node: string; name?: string; template: boolean; status: string; nics: Record<string, { bridge?: string }> },
  volumes: Array<{ slot: string; storage: string; sizeBytes?: number }>,
): CloneSourceFacts {
  return {
    vmid: source.vmid,
    node: source.node,
    ...(source.name !== undefined ? { name: source.name } : {}),
    template: source.template,
    running: source.status === "running",
    volumes,
    bridges: [...new Set(Object.values(source.nics).flatMap((n) => (n.bridge !== undefined ? [n.bridge] : [])))].sort(),
  };
}

/** The new guest as the spec describes it. */
export interface CloneTarget {
  name: string;
  node: string;
  vmid?: number;
  pool?: string;
}

/** Full as asked, else PVE's default: linked from a template, full otherwise. */
export function isFullClone(clone: CloneSpec, source: { template: boolean }): boolean {
  return clone.full ?? !source.template;
}

function cloneIntent(kind: GuestType, target: CloneTarget, clone: CloneSpec, source: CloneSourceFacts): CloneIntent {
  const full = isFullClone(clone, source);
  return {
    kind,
    op: "clone",
    source: { vmid: source.vmid, node: source.node, template: source.template, running: source.running },
    target: target.node,
    full,
    ...(clone.snapname !== undefined ? { snapname: clone.snapname } : {}),
    ...(full && clone.storage !== undefined ? { storage: clone.storage } : {}),
    ...(target.pool !== undefined && target.pool !== "" ? { pool: target.pool } : {}),
    volumes: source.volumes,
    bridges: source.bridges,
  };
}

/**
 * POST /nodes/{source node}/{kind}/{source}/clone, with every choice PVE would default written
 * out (`full`), `newid` added at apply when the vmid is allocated then. `nameParam`: how the
 * kind's clone call names the copy (`name` for VMs, `hostname` for containers).
 */
export function cloneStep(kind: GuestType, nameParam: string, target: CloneTarget, clone: CloneSpec, source: CloneSourceFacts): StepDraft {
  const intent = cloneIntent(kind, target, clone, source);
  const params: Record<string, ParamValue> = { [nameParam]: target.name, full: intent.full ? 1 : 0 };
  if (target.vmid !== undefined) params.newid = target.vmid;
  if (target.node !== source.node) params.target = target.node;
  if (intent.storage !== undefined) params.storage = intent.storage;
  if (intent.full && clone.format !== undefined) params.format = clone.format;
  if (intent.pool !== undefined) params.pool = intent.pool;
  if (clone.snapname !== undefined) params.snapname = clone.snapname;
  const at = clone.snapname !== undefined ? ` at snapshot ${clone.snapname}` : "";
  const what = `${source.template ? "template" : "guest"} ${source.name ?? source.vmid}${at}`;
  const how = intent.full ? "full clone" : "linked clone";
  const where = target.vmid !== undefined ? `vmid ${target.vmid}` : "vmid allocated at apply";
  const changes: FieldChange[] = [
    { field: "clone", after: `${how} of ${what} (vmid ${source.vmid} on ${source.node})` },
    { field: nameParam, after: target.name },
    ...(intent.storage !== undefined ? [{ field: "storage", after: intent.storage }] : []),
    ...(intent.pool !== undefined ? [{ field: "pool", after: intent.pool }] : []),
  ];
  return {
    action: "clone",
    severity: "configuration",
    summary: `${how} of ${source.name ?? source.vmid}${at} (vmid ${source.vmid}) as ${target.name} on ${target.node} (${where})`,
    changes,
    calls: [{ ...GUEST_KINDS[kind].endpoints.clone(source.node, source.vmid, params), intent }],
  };
}

/** A follow-up planned against the predicted copy's placeholder vmid: its calls name the vmid apply allocates. */
export function withVmidPlaceholder(step: StepDraft, vmid: number | undefined): StepDraft {
  if (vmid !== undefined) return step;
  const allocated = (c: ApiCall): ApiCall =>
    c.pathParams.vmid === UNKNOWN_VMID ? { ...c, pathParams: { ...c.pathParams, vmid: ALLOCATED_VMID } } : c;
  return { ...step, calls: step.calls.map(allocated) };
}

/**
 * The copy's own tags: a clone carries its source's, which lack pvectl's ownership tag when the
 * source is not pvectl's and name the source's node as the placement record. The first follow-up
 * adds the tag and records the copy's node (no step when the source's tags already say both), so
 * a rerun finds the clone and knows where pvectl put it. `config` is the kind's config call.
 */
export function cloneTagStep(
  config: (node: string, vmid: VmidRef, params: Record<string, ParamValue>) => ApiCall,
  copy: { node: string; tags: string[] },
  vmid: VmidRef,
): { step?: StepDraft; tags: string[] } {
  const tags = normaliseTags(withPlacementRecord([...copy.tags, OWNERSHIP_TAG], copy.node));
  const before = printTags(copy.tags);
  const after = printTags(tags);
  if (before === after) return { tags };
  const owned = copy.tags.includes(OWNERSHIP_TAG);
  const what = owned
    ? `record its node ${copy.node} (${placementTag(copy.node)}) in place of its source's`
    : `${OWNERSHIP_TAG} and record its node (${placementTag(copy.node)}): its source does not carry the ${OWNERSHIP_TAG} tag, so the copy does not either`;
  return {
    tags,
    step: {
      action: "config",
      severity: "configuration",
      summary: `tag the clone ${what}`,
      changes: [{ field: "tags", ...(before !== "" ? { before } : {}), after }],
      calls: [config(copy.node, vmid, { tags: after })],
    },
  };
}
