// The lxc kind as the engine sees it (resources/kind.ts).
import { getLxcConfig, getLxcPending, getLxcStatus } from "../../api/endpoints/index.js";
import type { ApiCall } from "../../plan/types.js";
import type { GuestKind } from "../kind.js";
import { snapshotTaskType } from "../snapshot-calls.js";
import { planCtClone } from "./clone.js";
import { lxcDevices } from "./devices.js";
import { planCreateCt, planDestroyCt, planNewCt, planUpdateCt } from "./diff.js";
import type { DesiredCt, LiveCt } from "./model.js";
import { lxcCallNeeds } from "./privileges.js";
import { liveCtFromConfig, liveCtFromPending } from "./read.js";
import { liveToSpecCt } from "./to-spec.js";
import { lxcCallLanded } from "./verify.js";

/** pve-container's worker types, by what a call does. */
const POWER_TASK = { start: "vzstart", shutdown: "vzshutdown", stop: "vzstop", reboot: "vzreboot" } as const;

function lxcTaskType(call: ApiCall): string | undefined {
  const intent = call.intent;
  switch (intent.op) {
    case "create":
      return "vzcreate";
    case "clone":
      return "vzclone";
    case "resize":
      return "resize";
    case "move-volume":
      return "move_volume";
    case "destroy":
      return "vzdestroy";
    case "template":
      return "vztemplate";
    case "power":
      return POWER_TASK[intent.action];
    case "snapshot":
      return snapshotTaskType("lxc", intent.action);
    // A container's config is only ever PUT, which answers at once (no task).
    default:
      return undefined;
  }
}

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
  taskType: lxcTaskType,
  landed: (call, guest, pending) => lxcCallLanded(call, liveCtFromPending({ ...guest, status: "stopped" }, pending)),
  callNeeds: lxcCallNeeds,
};
