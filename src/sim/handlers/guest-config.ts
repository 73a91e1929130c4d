// GET/PUT/POST …/{qemu|lxc}/{vmid}/config and GET …/qemu/{vmid}/pending.
import { splitList } from "../../pve/index.js";
import { isDiskKey } from "../cluster/drives.js";
import { assertFlockFree, flockAtStart } from "../cluster/config-flock.js";
import { checkLock, effectiveConfig, updateGuestConfig } from "../cluster/guest-config.js";
import type { GuestConfig, GuestState, GuestType } from "../cluster/types.js";
import { findStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { checkLxcOptionPermissions, checkNewDiskStorages, checkQemuOptionPermissions } from "./config-permissions.js";
import { checkLxcUpdate, clampCpuUnits } from "./lxc-config-checks.js";
import { CONTROL_PARAMS, flag, isKnownOption, pathGuest, rootOnly, sim, startGuestTask, str } from "./context.js";
import { validateQemuSshKeys } from "./ssh-keys.js";

function masked(config: GuestConfig): GuestConfig {
  const out: GuestConfig = {};
  for (const key of Object.keys(config).sort()) {
    const value = config[key];
    if (value === undefined) continue;
    out[key] = key === "cipassword" ? "**********" : value;
  }
  return out;
}

function getConfig(type: GuestType) {
  return (ctx: HandlerContext): GuestConfig => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const snapname = str(ctx, "snapshot");
    if (snapname !== undefined) {
      if (ctx.params.current !== undefined) {
        throw new PveApiError(400, "Parameter verification failed.", {
          snapshot: "option conflicts with option 'current'",
          current: "option conflicts with option 'snapshot'",
        });
      }
      const snap = guest.snapshots.find((s) => s.name === snapname);
      if (!snap) throw new PveApiError(500, `snapshot '${snapname}' does not exist`);
      return { ...masked(snap.config), digest: model.digest(guest) };
    }
    const config = flag(ctx, "current") ? guest.config : effectiveConfig(guest);
    return { ...masked(config), digest: model.digest(guest) };
  };
}

function getPending(type: GuestType) {
  return (ctx: HandlerContext) => pendingList(ctx, pathGuest(ctx, type));
}

function pendingList(ctx: HandlerContext, guest: GuestState): Array<Record<string, string | number>> {
  const keys = new Set([...Object.keys(guest.config), ...Object.keys(guest.pending), ...Object.keys(guest.pendingDelete)]);
  const out: Array<Record<string, string | number>> = [];
  for (const key of [...keys].sort()) {
    const entry: Record<string, string | number> = { key };
    const value = guest.config[key];
    const pending = guest.pending[key];
    if (value !== undefined) entry.value = key === "cipassword" ? "**********" : value;
    if (pending !== undefined) entry.pending = key === "cipassword" ? "**********" : pending;
    if (key in guest.pendingDelete) entry.delete = guest.pendingDelete[key] ? 2 : 1;
    out.push(entry);
  }
  out.push({ key: "digest", value: sim(ctx).digest(guest) });
  return out;
}

/** Validation and checks PVE does before writing (or forking); returns the prepared update. */
function prepareUpdate(ctx: HandlerContext, guest: GuestState) {
  const model = sim(ctx);
  rootOnly(ctx, "skiplock");
  const digest = str(ctx, "digest");
  if (digest !== undefined && digest !== model.digest(guest)) {
    throw new PveApiError(
      500,
      guest.type === "qemu"
        ? "checksum mismatch (file change by other user?)"
        : "detected modified configuration - file changed by other user? Try again.",
    );
  }
  const set: GuestConfig = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || CONTROL_PARAMS.has(key)) continue;
    if (key === "cdrom") set.ide2 = `${value},media=cdrom`;
    else set[key] = value;
  }
  const deletes = splitList(str(ctx, "delete") ?? "").map((k) => (k === "cdrom" ? "ide2" : k));
  const reverts = splitList(str(ctx, "revert") ?? "").map((k) => (k === "cdrom" ? "ide2" : k));
  if (guest.type === "qemu") validateQemuSshKeys(str(ctx, "sshkeys"));
  for (const key of deletes) {
    if (!isKnownOption(ctx, key)) {
      throw new PveApiError(400, "Parameter verification failed.", { delete: `unknown option '${key}'` });
    }
    if (set[key] !== undefined) {
      throw new PveApiError(400, "Parameter verification failed.", {
        delete: `you can't use '-${key}' and -delete ${key}' at the same time`,
      });
    }
  }
  for (const key of reverts) {
    if (!isKnownOption(ctx, key)) {
      throw new PveApiError(400, "Parameter verification failed.", { revert: `unknown option '${key}'` });
    }
    if (set[key] !== undefined) {
      throw new PveApiError(400, "Parameter verification failed.", {
        revert: `you can't use '-${key}' and -revert ${key}' at the same time`,
      });
    }
  }
  if (Object.keys(set).length === 0 && deletes.length === 0 && reverts.length === 0) {
    throw new PveApiError(500, "no options specified");
  }
  const touched = [...Object.keys(set), ...deletes, ...reverts];
  if (guest.type === "qemu") {
    checkQemuOptionPermissions(ctx, guest.vmid, touched, set, { check: "update", config: guest.config, pending: guest.pending });
    checkNewDiskStorages(
      ctx,
      set,
      (k) => isDiskKey("qemu", k),
      "images",
      (id) => findStorage(model.state, id)?.content,
    );
  } else {
    checkLxcOptionPermissions(ctx, guest.vmid, touched, set, effectiveConfig(guest));
  }
  // PUT waits for the config-file lock (a clone of this VM may hold it); POST's task does
  if (ctx.method === "PUT") assertFlockFree(model.state, guest.type, guest.vmid);
  checkLock(guest, flag(ctx, "skiplock"));
  if (guest.type === "lxc") {
    checkLxcUpdate(ctx, guest, set, deletes);
    if (set.cpuunits !== undefined) set.cpuunits = clampCpuUnits(Number(set.cpuunits));
  }
  const cfg = effectiveConfig(guest);
  const memory = Number.parseInt(String(set.memory ?? cfg.memory ?? "512").replace(/^current=/, ""), 10);
  const balloon = set.balloon ?? cfg.balloon;
  if (guest.type === "qemu" && balloon !== undefined && Number(balloon) > memory) {
    throw new PveApiError(500, "balloon value too large (must be smaller than assigned memory)");
  }
  return { set, delete: deletes, revert: reverts, force: flag(ctx, "force") };
}

function putConfig(type: GuestType) {
  return (ctx: HandlerContext): null => {
    const guest = pathGuest(ctx, type);
    const update = prepareUpdate(ctx, guest);
    updateGuestConfig(sim(ctx), guest, update, () => {});
    return null;
  };
}

function postConfig(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "qemu");
  const update = prepareUpdate(ctx, guest);
  const model = sim(ctx);
  const waitFlock = flockAtStart(model.state, guest.type, guest.vmid);
  return startGuestTask(ctx, {
    type: "qmconfig",
    vmid: guest.vmid,
    kind: "config",
    work: (task) => {
      waitFlock();
      checkLock(guest, flag(ctx, "skiplock"));
      updateGuestConfig(model, guest, update, (line) => task.warn(line));
    },
  });
}

export function registerGuestConfig(router: Router): void {
  router.add("GET", "/nodes/{node}/qemu/{vmid}/config", getConfig("qemu"));
  router.add("PUT", "/nodes/{node}/qemu/{vmid}/config", putConfig("qemu"));
  router.add("POST", "/nodes/{node}/qemu/{vmid}/config", postConfig);
  router.add("GET", "/nodes/{node}/qemu/{vmid}/pending", getPending("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/pending", getPending("lxc"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/config", getConfig("lxc"));
  router.add("PUT", "/nodes/{node}/lxc/{vmid}/config", putConfig("lxc"));
}
