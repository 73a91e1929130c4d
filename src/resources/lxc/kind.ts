// The lxc kind as the engine sees it (resources/kind.ts).
import { getLxcConfig, getLxcPending, getLxcStatus } from "../../api/endpoints/index.js";
import type { GuestKind } from "../kind.js";
import { type GuestTaskTypes, taskTypeOf } from "../task-types.js";
import { planCtClone } from "./clone.js";
import { lxcDesiredVolumes, lxcDevices, lxcLiveVolumes } from "./devices.js";
import { lxcEndpoints } from "./endpoints.js";
import { lxcCalls } from "./calls.js";
import { planCreateCt, planNewCt, planUpdateCt } from "./diff.js";
import type { DesiredCt, LiveCt } from "./model.js";
import { lxcCallNeeds } from "./privileges.js";
import { liveCtFromConfig, liveCtFromPending } from "./read.js";
import { desiredCtFromSpec } from "./spec-desired.js";
import { ctEntrySchema } from "./spec-entry.js";
import { ctKeyMessage } from "./spec-issues.js";
import { type ContainerSpec, describeCt } from "./spec-model.js";
import { normalizeCt } from "./spec-normalize.js";
import { ctDestroyedVolumes, ctVolumeOwner } from "./steps.js";
import { liveToSpecCt } from "./to-spec.js";
import { lxcCallLanded } from "./verify.js";

/** pve-container's worker types, by what a call does. */
const TASK_TYPES: GuestTaskTypes = {
  create: "vzcreate",
  clone: "vzclone",
  // No configPost: a container's config is only ever PUT, which answers at once (no task).
  resize: "resize",
  moveVolume: "move_volume",
  migrate: "vzmigrate",
  destroy: "vzdestroy",
  template: "vztemplate",
  restore: "vzrestore",
  power: { start: "vzstart", shutdown: "vzshutdown", stop: "vzstop", reboot: "vzreboot" },
  snapshot: { create: "vzsnapshot", delete: "vzdelsnapshot", rollback: "vzrollback" },
};

export const lxcKind: GuestKind<DesiredCt, LiveCt, ContainerSpec, "containers"> = {
  type: "lxc",
  // The object literals here name only functions of the folder (hoisted): this module is
  // evaluated inside the registry's import cycle, before some of the folder's constants.
  spec: {
    key: "containers",
    description: "LXC containers.",
    schema: ctEntrySchema,
    normalize: normalizeCt,
    nameField: "hostname",
    describe: describeCt,
    unknownKeyMessage: ctKeyMessage,
    toDesired: desiredCtFromSpec,
  },
  specKind: "container",
  noun: "container",
  nameKey: "hostname",
  volumeContent: { type: "rootdir", described: "container volumes (content rootdir)" },
  haPrefix: "ct",
  rules: {
    fullCloneNeedsStoppedSource: true,
    linksFromSnapshot: true,
    linksOnFileStorages: false,
    templateRefusesOrdinaryVolumes: true,
    snapshotsSaveRam: false,
    configPost: false,
    recordsCreationTime: false,
    restoreReadsArchiveStorages: true,
  },
  endpoints: lxcEndpoints,
  // pve-container restores through its create call: the archive as the template, with `restore`.
  restoreParams: (archive) => ({ ostemplate: archive, restore: 1 }),
  absent: (identity) => ({ kind: "lxc", ...identity, options: {}, nics: [], absent: true, mounts: [] }),
  powerCall: (node, vmid, action) => lxcCalls.power(node, vmid, action),
  desiredVolumes: lxcDesiredVolumes,
  liveVolumes: lxcLiveVolumes,
  diskSizes: (live) => new Map(Object.values(live.mounts).map((m) => [m.slot, m.sizeBytes])),
  read: { config: getLxcConfig, pending: getLxcPending, status: getLxcStatus },
  fromPending: liveCtFromPending,
  fromConfig: liveCtFromConfig,
  plan: {
    create: (ct, source) => (ct.clone !== undefined && source !== undefined ? planCtClone(ct, ct.clone, source) : planCreateCt(ct)),
    update: planUpdateCt,
    idle: (ct, errors) => planNewCt(ct, [], errors),
  },
  destruction: {
    volumes: ctDestroyedVolumes,
    volumeOwner: ctVolumeOwner,
    title: (live) => `container ${live.name ?? ""}`,
    // pve-container is also told to destroy the volumes of the vmid no config names (destroy-unreferenced-disks).
    alsoDeletes: (live) => `, and any other volume of vmid ${live.vmid} on its storages`,
    lockedNoun: "container",
    call: (node, vmid) => lxcCalls.destroy(node, vmid),
    power: (node, vmid, action, params) => lxcCalls.power(node, vmid, action, params),
  },
  devices: lxcDevices,
  toSpec: liveToSpecCt,
  tasks: TASK_TYPES,
  taskType: (call) => taskTypeOf(TASK_TYPES, call),
  landed: (call, guest, pending) => lxcCallLanded(call, liveCtFromPending({ ...guest, status: "stopped" }, pending)),
  callNeeds: lxcCallNeeds,
};
