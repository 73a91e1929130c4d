// The qemu kind as the engine sees it (resources/kind.ts).
import { getQemuConfig, getQemuPending, getQemuStatus } from "../../api/endpoints/index.js";
import type { ApiCall } from "../../plan/types.js";
import type { GuestKind } from "../kind.js";
import { snapshotTaskType } from "../snapshot-calls.js";
import { planClone } from "./clone.js";
import { qemuDevices } from "./devices.js";
import { planCreate, planDestroy, planNewGuest, planUpdate } from "./diff.js";
import type { DesiredVm, LiveVm } from "./model.js";
import { qemuCallNeeds } from "./privileges.js";
import { liveVmFromConfig, liveVmFromPending } from "./read.js";
import { liveToSpecVm } from "./to-spec.js";
import { qemuCallLanded } from "./verify.js";

/** qemu-server's worker types, by what a call does. */
const POWER_TASK = { start: "qmstart", shutdown: "qmshutdown", stop: "qmstop", reboot: "qmreboot" } as const;

function qemuTaskType(call: ApiCall): string | undefined {
  const intent = call.intent;
  switch (intent.op) {
    case "create":
      return "qmcreate";
    case "clone":
      return "qmclone";
    // A PUT config answers at once; only a POST runs as a task.
    case "configure":
      return call.method === "POST" ? "qmconfig" : undefined;
    case "resize":
      return "resize";
    case "move-volume":
      return "qmmove";
    case "destroy":
      return "qmdestroy";
    case "template":
      return "qmtemplate";
    case "power":
      return POWER_TASK[intent.action];
    case "snapshot":
      return snapshotTaskType("qemu", intent.action);
    default:
      return undefined;
  }
}

export const qemuKind: GuestKind<DesiredVm, LiveVm> = {
  type: "qemu",
  read: { config: getQemuConfig, pending: getQemuPending, status: getQemuStatus },
  fromPending: liveVmFromPending,
  fromConfig: liveVmFromConfig,
  plan: {
    create: (vm, source) => (vm.clone !== undefined && source !== undefined ? planClone(vm, vm.clone, source) : planCreate(vm)),
    update: planUpdate,
    destroy: planDestroy,
    idle: (vm, errors) => planNewGuest(vm, [], errors),
  },
  devices: qemuDevices,
  toSpec: liveToSpecVm,
  taskType: qemuTaskType,
  landed: (call, guest, pending) => qemuCallLanded(call, liveVmFromPending({ ...guest, status: "stopped" }, pending)),
  callNeeds: qemuCallNeeds,
};
