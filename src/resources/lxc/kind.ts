// The lxc kind as the engine sees it (resources/kind.ts).
import { getLxcConfig, getLxcPending, getLxcStatus } from "../../api/endpoints/index.js";
import type { GuestKind } from "../kind.js";
import { type GuestTaskTypes, taskTypeOf } from "../task-types.js";
import { planCtClone } from "./clone.js";
import { lxcDevices } from "./devices.js";
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
  destroy: "vzdestroy",
  template: "vztemplate",
  restore: "vzrestore",
  power: { start: "vzstart", shutdown: "vzshutdown", stop: "vzstop", reboot: "vzreboot" },
  snapshot: { create: "vzsnapshot", delete: "vzdelsnapshot", rollback: "vzrollback" },
};

export const lxcKind: GuestKind<DesiredCt, LiveCt> = {
  type: "lxc",
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
