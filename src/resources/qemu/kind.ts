// The qemu kind as the engine sees it (resources/kind.ts).
import type { GuestKind } from "../kind.js";
import { getQemuConfig, getQemuPending, getQemuStatus } from "../../api/endpoints/index.js";
import { qemuCallNeeds } from "./privileges.js";
import { liveVmFromPending } from "./read.js";
import { qemuCallLanded } from "./verify.js";

/** qemu-server's worker types, by what a call does. */
const POWER_TASK = { start: "qmstart", shutdown: "qmshutdown", stop: "qmstop", reboot: "qmreboot" } as const;

export const qemuKind: GuestKind = {
  type: "qemu",
  read: { config: getQemuConfig, pending: getQemuPending, status: getQemuStatus },
  taskType(call) {
    const intent = call.intent;
    switch (intent.op) {
      case "create":
        return "qmcreate";
      // A PUT config answers at once; only a POST runs as a task.
      case "configure":
        return call.method === "POST" ? "qmconfig" : undefined;
      case "resize":
        return "resize";
      case "move-volume":
        return "qmmove";
      case "destroy":
        return "qmdestroy";
      case "power":
        return POWER_TASK[intent.action];
      default:
        return undefined;
    }
  },
  landed(call, guest, pending) {
    return qemuCallLanded(call, liveVmFromPending({ ...guest, status: "stopped" }, pending));
  },
  callNeeds: qemuCallNeeds,
};
