// Container power operations as pve-container's API2/LXC/Status.pm does them: whether the CT
// runs is checked at once (a 500 before any task), everything else (template, lock) inside the
// `vzstart`/`vzstop`/`vzshutdown`/`vzreboot` task, so it shows up as the task's exit status.
import { parseDrive } from "../cluster/drives.js";
import { applyPending, checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { flag, pathGuest, rootOnly, sim, startGuestTask } from "./context.js";
import { haManaged } from "./ha.js";
import { haTask } from "./qemu-power.js";

/** check_lock, except that start and stop may pass `skiplock` and ignore the `mounted` lock. */
function checkPowerLock(guest: GuestState, skiplock: boolean): void {
  if (skiplock || guest.config.lock === "mounted") return;
  checkLock(guest);
}

/** What vm_start refuses before starting: a template, a lock, quotas in an unprivileged CT. */
function startChecks(guest: GuestState, skiplock: boolean): void {
  if (guest.config.template === 1) throw new Error("you can't start a CT if it's a template");
  checkPowerLock(guest, skiplock);
  if (Number(guest.config.unprivileged ?? 0) !== 1) return;
  for (const key of Object.keys(guest.config)) {
    if (key !== "rootfs" && !/^mp\d+$/.test(key)) continue;
    if (parseDrive("lxc", key, String(guest.config[key])).quota === true) {
      throw new Error("Quotas are not supported by unprivileged containers.");
    }
  }
}

/** Starts a stopped CT: pending changes are applied first, as vm_start does. */
export function startContainer(model: SimCluster, guest: GuestState, skiplock: boolean): void {
  startChecks(guest, skiplock);
  applyPending(model, guest);
  model.markRunning(guest);
}

function start(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock");
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (guest.status === "running") throw new PveApiError(500, `CT ${guest.vmid} already running`);
  if (haManaged(guest)) return haTask(ctx, model, guest, "started");
  const skiplock = flag(ctx, "skiplock");
  return startGuestTask(ctx, {
    type: "vzstart",
    vmid: guest.vmid,
    kind: "start",
    work: () => {
      if (guest.status === "running") throw new Error(`CT ${guest.vmid} already running`);
      startContainer(model, guest, skiplock);
    },
  });
}

function stop(ctx: HandlerContext): string {
  rootOnly(ctx, "skiplock");
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (guest.status !== "running") throw new PveApiError(500, `CT ${guest.vmid} not running`);
  if (haManaged(guest)) {
    if (ctx.params["overrule-shutdown"] !== undefined && flag(ctx, "overrule-shutdown")) {
      throw new PveApiError(400, "Parameter verification failed.", { "overrule-shutdown": "Not applicable for HA resources." });
    }
    return haTask(ctx, model, guest, "stopped");
  }
  const skiplock = flag(ctx, "skiplock");
  return startGuestTask(ctx, {
    type: "vzstop",
    vmid: guest.vmid,
    kind: "stop",
    work: () => {
      checkPowerLock(guest, skiplock);
      model.markStopped(guest);
    },
  });
}

function shutdown(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (guest.status !== "running") throw new PveApiError(500, `CT ${guest.vmid} not running`);
  if (haManaged(guest)) return haTask(ctx, model, guest, "stopped");
  return startGuestTask(ctx, {
    type: "vzshutdown",
    vmid: guest.vmid,
    kind: "shutdown",
    work: () => {
      // shutdown knows no skiplock: any lock stops it
      checkLock(guest);
      model.markStopped(guest);
    },
  });
}

function reboot(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  // Status.pm's reboot says "VM", unlike every other container message
  if (guest.status !== "running") throw new PveApiError(500, `VM ${guest.vmid} not running`);
  return startGuestTask(ctx, {
    type: "vzreboot",
    vmid: guest.vmid,
    kind: "reboot",
    work: () => {
      model.markStopped(guest);
      applyPending(model, guest);
      model.markRunning(guest);
    },
  });
}

export function registerLxcPower(router: Router): void {
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/start", start);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/stop", stop);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/shutdown", shutdown);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/reboot", reboot);
}
