// `restore ARCHIVE --vmid N`: one step that makes guest N from a vzdump archive (qemu:
// POST …/qemu archive=; lxc: POST …/lxc ostemplate= restore=1). Over an existing guest
// (PVE's force=1) it replaces that guest's disks and config: data-loss-risk, naming the
// volumes that go. The restored guest carries the archive's config as it was backed up, tags
// included: a restore of a pvectl guest is owned again, a restore of another team's guest stays
// theirs (adding the ownership tag would replace the archive's tag list: PVE overrides it).
import type { GuestType, StoredVolume } from "../../plan/intent.js";
import type { ApiCall, GuestPlan, ParamValue, StepDraft } from "../../plan/types.js";
import { GUEST_KINDS } from "../index.js";
import { type ArchiveGuest, guestKey, guestLabel, numbered } from "./guests.js";

export interface RestoreRequest {
  archive: StoredVolume;
  /** What the archive holds (from its name: vzdump-qemu-… or vzdump-lxc-…). */
  kind: GuestType;
  vmid: number;
  node: string;
  /** Every restored disk goes here (a VM without it: the storage each was backed up from; app/restore.ts always names one for a container). */
  storage?: string;
  start: boolean;
  /** New MACs for every NIC (PVE's `unique`); without it the archive's MACs are kept. */
  unique?: boolean;
  /** The guest's name (qemu `name`, lxc `hostname`) instead of the archive's: a copy's own. */
  name?: string;
}

/** The guest restored over, as the plan read it: its disks (slot -> volume) are named as lost. */
export interface ReplacedGuest extends ArchiveGuest {
  volumes: Record<string, string>;
}

/** The guest type an archive holds, from PVE's naming scheme; undefined for another name. */
export function archiveKind(volume: string): GuestType | undefined {
  const m = /vzdump-(qemu|lxc)-\d+-/.exec(volume);
  return m ? (m[1] as GuestType) : undefined;
}

export function planRestore(
  request: RestoreRequest,
  existing: ReplacedGuest | undefined,
  errors: string[],
  warnings: string[] = [],
): GuestPlan {
  const label = existing ? guestLabel(existing) : `vmid ${request.vmid}`;
  const key = existing ? guestKey(existing) : `vmid-${request.vmid}`;
  const base = {
    kind: request.kind,
    key,
    name: existing?.name ?? key,
    vmid: request.vmid,
    node: request.node,
    exists: existing !== undefined,
    warnings,
  };
  if (errors.length > 0) return { ...base, steps: [], errors };
  return { ...base, steps: numbered(key, [restoreStep(request, existing, label)]), errors: [] };
}

function restoreStep(request: RestoreRequest, existing: ReplacedGuest | undefined, label: string): StepDraft {
  const renamed = request.name !== undefined ? `, named ${request.name} (a copy: not the archive's guest)` : "";
  const where = `${request.node}${request.storage !== undefined ? `, disks on ${request.storage}` : ""}${request.unique ? ", new MAC addresses" : ""}${renamed}${request.start ? ", started after" : ""}`;
  const call = restoreCall(request, existing !== undefined);
  if (existing === undefined) {
    return {
      action: "restore",
      severity: "configuration",
      summary: `restore ${request.archive.volume} as new guest ${label} on ${where}`,
      changes: [],
      calls: [call],
    };
  }
  const lost = Object.values(existing.volumes);
  return {
    action: "restore",
    severity: "data-loss-risk",
    summary: `restore ${request.archive.volume} over ${label} on ${where}: its config and disks are replaced by the archive's`,
    changes: [],
    calls: [call],
    ...(lost.length > 0 ? { deletesVolumes: lost } : {}),
  };
}

function restoreCall(request: RestoreRequest, replaces: boolean): ApiCall {
  const params: Record<string, ParamValue> = { vmid: request.vmid };
  const kind = GUEST_KINDS[request.kind];
  Object.assign(params, kind.restoreParams(request.archive.volume));
  if (request.storage !== undefined) params.storage = request.storage;
  if (replaces) params.force = 1;
  if (request.start) params.start = 1;
  if (request.unique) params.unique = 1;
  // PVE lays the options given with a restore over the archive's config.
  if (request.name !== undefined) params[kind.nameKey] = request.name;
  return {
    ...kind.endpoints.create(request.node, params),
    intent: {
      kind: request.kind,
      op: "restore",
      vmid: request.vmid,
      archive: request.archive,
      replaces,
      start: request.start,
      ...(request.unique ? { unique: true } : {}),
      ...(request.storage !== undefined ? { storage: request.storage } : {}),
    },
  };
}
