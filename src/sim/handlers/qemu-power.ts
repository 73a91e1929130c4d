// POST …/qemu/{vmid}/status/{start|stop|shutdown|reboot|reset|suspend|resume}.
import { applyPending, checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import { nicBridge } from "../cluster/nics.js";
import { sdnBridges } from "../cluster/sdn.js";
import type { GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { readCloudinitAtBoot, regenerateCloudinit } from "./cloudinit.js";
import { flag, pathGuest, rootOnly, sim, startGuestTask } from "./context.js";
import { applyHaState, haManaged } from "./ha.js";

function assertBridges(model: SimCluster, guest: GuestState): void {
  // an applied SDN vnet is a bridge on the nodes of its zone
  const bridges = [...(model.node(guest.node)?.bridges ?? []), ...sdnBridges(model.state, guest.node)];
  for (const [key, value] of Object.entries(guest.config)) {
    if (!/^net\d+$/.test(key)) continue;
    const bridge = nicBridge("qemu", key, String(value));
    if (bridge && !bridges.includes(bridge)) throw new Error(`bridge '${bridge}' does not exist`);
  }
}

/** The start logic shared by start, rollback with vmstate and create with start=1. */
export function startVm(model: SimCluster, guest: GuestState, skiplock: boolean): void {
  if (guest.config.lock !== "suspended") checkLock(guest, skiplock);
  if (guest.config.template === 1) throw new Error("you can't start a vm if it's a template");
  if (guest.status === "running") throw new Error(`VM ${guest.vmid} already running`);
  applyPending(model, guest);
  assertBridges(model, guest);
  if (guest.config.lock === "suspended") delete guest.config.lock;
  regenerateCloudinit(guest);
  model.markRunning(guest);
  readCloudinitAtBoot(guest);
  // `freeze: 1` starts the CPU halted until a resume (qmpstatus prelaunch)
  if (guest.config.freeze === 1) guest.qmpstatus = "prelaunch";
}

/** HA-managed guests change their requested HA state instead (tasks hastart / hastop). */
export function haTask(ctx: HandlerContext, model: SimCluster, guest: GuestState, state: "started" | "stopped"): string {
  return startGuestTask(ctx, {
    type: state === "started" ? "hastart" : "hastop",
    vmid: guest.vmid,
    kind: "config",
    work: (task) => {
      task.log(`Requesting HA ${state === "started" ? "start" : "stop"} for ${guest.type === "qemu" ? "VM" : "CT"} ${guest.vmid}`);
      applyHaState(model, ctx, guest, state);
    },
  });
}

function startTask(ctx: HandlerContext, model: SimCluster, guest: GuestState, skiplock: boolean): string {
  return startGuestTask(ctx, {
    type: "qmstart",
    vmid: guest.vmid,
    kind: "start",
    work: () => startVm(model, guest, skiplock),
  });
}

function start(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock", "migratedfrom", "stateuri", "force-cpu", "machine", "targetstorage");
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  const skiplock = flag(ctx, "skiplock");
  if (haManaged(guest)) return haTask(ctx, model, guest, "started");
  return startTask(ctx, model, guest, skiplock);
}

/** Stop and shutdown end alike in the simulator: the guest is off once the task has run. */
function stopTask(ctx: HandlerContext, model: SimCluster, guest: GuestState, type: "qmstop" | "qmshutdown"): string {
  const skiplock = flag(ctx, "skiplock");
  if (haManaged(guest)) return haTask(ctx, model, guest, "stopped");
  return startGuestTask(ctx, {
    type,
    vmid: guest.vmid,
    kind: "stop",
    work: () => {
      if (guest.status !== "running") return;
      checkLock(guest, skiplock);
      model.markStopped(guest);
    },
  });
}

function stop(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock", "migratedfrom", "keepActive");
  return stopTask(ctx, sim(ctx), pathGuest(ctx, "qemu"), "qmstop");
}

function shutdown(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock", "keepActive");
  const guest = pathGuest(ctx, "qemu");
  if (guest.status === "running" && guest.qmpstatus === "paused" && !flag(ctx, "forceStop")) {
    throw new PveApiError(500, "VM is paused - cannot shutdown");
  }
  return stopTask(ctx, sim(ctx), guest, "qmshutdown");
}

function requireRunning(guest: GuestState): void {
  if (guest.status !== "running") throw new PveApiError(500, `VM ${guest.vmid} not running`);
}

function reboot(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  requireRunning(guest);
  if (guest.qmpstatus === "paused") throw new PveApiError(500, "VM is paused - cannot shutdown");
  return startGuestTask(ctx, {
    type: "qmreboot",
    vmid: guest.vmid,
    kind: "start",
    work: () => {
      checkLock(guest);
      model.markStopped(guest);
      applyPending(model, guest);
      regenerateCloudinit(guest);
      model.markRunning(guest);
      readCloudinitAtBoot(guest);
    },
  });
}

function reset(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock");
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  requireRunning(guest);
  checkLock(guest, flag(ctx, "skiplock"));
  return startGuestTask(ctx, {
    type: "qmreset",
    vmid: guest.vmid,
    kind: "config",
    work: () => {
      model.markRunning(guest);
      readCloudinitAtBoot(guest);
    },
  });
}

function suspend(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock");
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  requireRunning(guest);
  const todisk = flag(ctx, "todisk");
  if (todisk) ctx.checkPermission(`/vms/${guest.vmid}`, ["VM.Config.Disk"]);
  const skiplock = flag(ctx, "skiplock");
  return startGuestTask(ctx, {
    type: todisk ? "qmsuspend" : "qmpause",
    vmid: guest.vmid,
    kind: todisk ? "stop" : "config",
    work: () => {
      checkLock(guest, skiplock);
      if (todisk) {
        model.markStopped(guest);
        guest.config.lock = "suspended";
      } else guest.qmpstatus = "paused";
    },
  });
}

function resume(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock");
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  if (guest.config.lock === "suspended" && guest.status !== "running") return startTask(ctx, model, guest, false);
  requireRunning(guest);
  return startGuestTask(ctx, {
    type: "qmresume",
    vmid: guest.vmid,
    kind: "config",
    work: () => {
      guest.qmpstatus = "running";
    },
  });
}

export function registerQemuPower(router: Router): void {
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/start", start);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/stop", stop);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/shutdown", shutdown);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/reboot", reboot);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/reset", reset);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/suspend", suspend);
  router.add("POST", "/nodes/{node}/qemu/{vmid}/status/resume", resume);
}
