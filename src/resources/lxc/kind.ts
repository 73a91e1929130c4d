// The lxc kind as the engine sees it (resources/kind.ts).
import { getLxcConfig, getLxcPending, getLxcStatus } from "../../api/endpoints/index.js";
import type { GuestKind } from "../kind.js";
import { type GuestTaskTypes, taskTypeOf } from "../task-types.js";
import { planCtClone } from "./clone.js";
import { lxcDesiredVolumes, lxcDevices, lxcLiveVolumes } from "./devices.js";
import { lxcEndpoints } from "./endpoints.js";
import { lxcCalls } from "./calls.js";
import { planCreateCt, planDestroyCt, planNewCt, planUpdateCt } from "./diff.js";
import type { DesiredCt, LiveCt } from "./model.js";
import { lxcCallNeeds } from "./privileges.js";
import { liveCtFromConfig, liveCtFromPending } from "./read.js";
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

export const lxcKind: GuestKind<DesiredCt, LiveCt> = {
  type: "lxc",
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
    destroy: planDestroyCt,
    idle: (ct, errors) => planNewCt(ct, [], errors),
  },
  devices: lxcDevices,
  toSpec: liveToSpecCt,
  tasks: TASK_TYPES,
  taskType: (call) => taskTypeOf(TASK_TYPES, call),
  landed: (call, guest, pending) => lxcCallLanded(call, liveCtFromPending({ ...guest, status: "stopped" }, pending)),
  callNeeds: lxcCallNeeds,
};
