// LXC containers: create from a template in storage content, power operations, clone,
// template, pending (containers apply changes at once in the simulator).
import { driveVolume, inAllocationOrder, isDiskKey, withVolume } from "../cluster/drives.js";
import { applyPending, checkLock, normaliseValue } from "../cluster/guest-config.js";
import { withNewMac } from "../cluster/nics.js";
import type { ConfigValue, GuestConfig } from "../cluster/types.js";
import {
  allocateVolume,
  findStorage,
  findVolume,
  renameToBase,
  requireStorage,
} from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { readCloneRequest } from "./clone-request.js";
import { checkNewDiskStorages } from "./config-permissions.js";
import { flag, nodeParam, pathGuest, sim, startGuestTask, str, vmidParam } from "./context.js";
import { applyHaState, haManaged } from "./ha.js";
import { freeOnFailure, removeGuest, reserveGuest } from "./new-guest.js";
import { checkAllocate, checkPoolExists } from "./qemu-create.js";
import { haTask } from "./qemu-power.js";
import { restoreOnCreate } from "./restore.js";

const CREATE_CONTROL = new Set([
  "node",
  "vmid",
  "ostemplate",
  "password",
  "ssh-public-keys",
  "storage",
  "pool",
  "start",
  "force",
  "restore",
  "unique",
  "ignore-unpack-errors",
  "bwlimit",
  "ha-managed",
]);

const OSTYPES = ["debian", "devuan", "ubuntu", "centos", "fedora", "opensuse", "archlinux", "alpine", "gentoo", "nixos"];

function ostypeOf(template: string): string {
  const file = template.split("/").pop() ?? "";
  return OSTYPES.find((os) => file.startsWith(os)) ?? "unmanaged";
}

function createCt(ctx: HandlerContext): string {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  const vmid = vmidParam(ctx);
  model.requireNode(node);
  const pool = str(ctx, "pool");
  if (flag(ctx, "restore")) {
    checkPoolExists(model, pool);
    return restoreOnCreate(ctx, model, "lxc", str(ctx, "ostemplate") ?? "", CREATE_CONTROL);
  }
  checkAllocate(ctx, vmid, pool);
  const unprivileged = ctx.params.unprivileged === undefined ? 1 : Number(ctx.params.unprivileged);
  if (unprivileged === 0) ctx.checkPermission("/", ["Sys.Modify"]);
  const storage = str(ctx, "storage") ?? "local";
  const requested: GuestConfig = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value !== undefined && !CREATE_CONTROL.has(key)) requested[key] = value;
  }
  requested.rootfs ??= `${storage}:4`;
  for (const key of Object.keys(requested)) {
    // a bare number means a new volume of that many GiB on the default storage
    if (isDiskKey("lxc", key) && /^\d+(\.\d+)?$/.test(String(requested[key]))) requested[key] = `${storage}:${requested[key]}`;
  }
  checkNewDiskStorages(ctx, requested, (k) => isDiskKey("lxc", k), "rootdir", (id) => findStorage(model.state, id)?.content);
  checkPoolExists(model, pool);
  const existing = model.guest(vmid);
  if (existing) {
    throw new PveApiError(500, `${existing.type === "qemu" ? "VM" : "CT"} ${vmid} already exists on node '${existing.node}'`);
  }
  const ostemplate = str(ctx, "ostemplate") ?? "";
  const templateStorage = ostemplate.split(":")[0] ?? "";
  if (!findStorage(model.state, templateStorage)) throw new PveApiError(500, `storage '${templateStorage}' does not exist`);
  if (!findVolume(model.state, ostemplate, node)) {
    throw new PveApiError(500, `volume '${ostemplate}' does not exist`);
  }
  const guest = reserveGuest(model, { vmid, type: "lxc", node, agentDelay: 0 }, "create");
  const start = flag(ctx, "start");
  const haManagedParam = flag(ctx, "ha-managed");
  return ctx.tasks.start({
    node,
    type: "vzcreate",
    id: String(vmid),
    kind: "create",
    onFailure: () => removeGuest(model, guest),
    work: (task) =>
      freeOnFailure(model, node, () => removeGuest(model, guest), (allocated) => {
        const config: GuestConfig = { arch: "amd64", memory: 512, swap: 512, ostype: ostypeOf(ostemplate) };
        for (const key of inAllocationOrder("lxc", Object.keys(requested))) {
          config[key] = normaliseValue(model, guest, key, requested[key] as ConfigValue, allocated);
        }
        config.hostname ??= `CT${vmid}`;
        config.unprivileged = unprivileged;
        task.log(`extracting archive '${ostemplate}'`);
        task.log(`Total bytes read: ${findVolume(model.state, ostemplate, node)?.size ?? 0}`);
        guest.config = config;
        if (pool !== undefined) model.addToPool(pool, vmid);
        if (start) model.markRunning(guest);
        if (haManagedParam) applyHaState(model, guest, start ? "started" : "stopped");
      }),
  });
}

function start(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (haManaged(guest)) return haTask(ctx, model, guest, "started");
  if (guest.status === "running") throw new PveApiError(500, `CT ${guest.vmid} already running`);
  if (guest.config.template === 1) throw new PveApiError(500, "you can't start a CT if it's a template");
  checkLock(guest, flag(ctx, "skiplock"));
  return startGuestTask(ctx, {
    type: "vzstart",
    vmid: guest.vmid,
    kind: "start",
    work: () => {
      if (guest.status === "running") return;
      applyPending(model, guest);
      model.markRunning(guest);
    },
  });
}

function stopLike(type: "vzstop" | "vzshutdown" | "vzreboot") {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, "lxc");
    const model = sim(ctx);
    if (type !== "vzreboot" && haManaged(guest)) return haTask(ctx, model, guest, "stopped");
    if (guest.status !== "running") throw new PveApiError(500, `CT ${guest.vmid} not running`);
    if (type !== "vzreboot") checkLock(guest, flag(ctx, "skiplock"));
    return startGuestTask(ctx, {
      type,
      vmid: guest.vmid,
      kind: type === "vzreboot" ? "start" : "stop",
      work: () => {
        model.markStopped(guest);
        if (type === "vzreboot") {
          applyPending(model, guest);
          model.markRunning(guest);
        }
      },
    });
  };
}

function lxcTemplate(ctx: HandlerContext): null {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  checkLock(guest);
  if (guest.snapshots.length > 0) throw new PveApiError(500, "unable to create template, because CT contains snapshots");
  if (guest.config.template === 1) throw new PveApiError(500, "you can't convert a template to a template");
  if (guest.status === "running") throw new PveApiError(500, "you can't convert a CT to template if the CT is running");
  for (const [key, value] of Object.entries(guest.config)) {
    if (!isDiskKey("lxc", key)) continue;
    const volid = driveVolume(String(value));
    if (!volid) continue;
    guest.config[key] = withVolume("lxc", key, String(value), renameToBase(model.state, volid, guest.node));
  }
  guest.config.template = 1;
  return null;
}

function cloneCt(ctx: HandlerContext): string {
  const { source, model, newid, pool, target, storageId, isTemplate, full } = readCloneRequest(ctx, "lxc");
  if (model.guest(newid)) throw new PveApiError(500, `unable to create CT ${newid} - CT ${newid} already exists on node '${model.guest(newid)?.node}'`);
  checkLock(source);
  if (!full && !isTemplate) throw new PveApiError(500, "linked clone feature is not available for non-template containers");
  if (!full && storageId !== undefined) throw new PveApiError(500, "parameter 'storage' not allowed for linked clones");
  if (storageId !== undefined) requireStorage(model.state, storageId, target);
  const clone = reserveGuest(model, { vmid: newid, type: "lxc", node: target, agentDelay: 0 }, "create");
  const hostname = str(ctx, "hostname");
  const description = str(ctx, "description");
  return startGuestTask(ctx, {
    type: "vzclone",
    vmid: source.vmid,
    kind: "clone",
    onFailure: () => removeGuest(model, clone),
    work: () =>
      freeOnFailure(model, target, () => removeGuest(model, clone), (allocated) => {
        const next: GuestConfig = {};
        for (const [key, value] of Object.entries(source.config)) {
          if (["lock", "template", "parent"].includes(key) || /^unused\d+$/.test(key)) continue;
          next[key] = value;
        }
        for (const key of Object.keys(next)) {
          if (/^net\d+$/.test(key)) {
            next[key] = withNewMac("lxc", key, String(next[key]), model.newMac());
          }
          if (!isDiskKey("lxc", key)) continue;
          const volid = driveVolume(String(next[key]));
          const volume = volid ? findVolume(model.state, volid, source.node) : undefined;
          if (!volume) continue;
          const storage = requireStorage(model.state, full ? (storageId ?? volume.storage) : volume.storage, target);
          const created = allocateVolume(model.state, {
            storage,
            node: target,
            vmid: newid,
            size: volume.size,
            content: "rootdir",
            ...(full ? {} : { parent: volume.volid }),
            ctime: model.now(),
          });
          allocated.push(created);
          next[key] = withVolume("lxc", key, String(next[key]), created.volid);
        }
        if (hostname !== undefined) next.hostname = hostname;
        if (description !== undefined) next.description = description;
        clone.config = next;
        if (pool !== undefined) model.addToPool(pool, newid);
      }),
  });
}

export function registerLxcHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/lxc", createCt);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/start", start);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/stop", stopLike("vzstop"));
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/shutdown", stopLike("vzshutdown"));
  router.add("POST", "/nodes/{node}/lxc/{vmid}/status/reboot", stopLike("vzreboot"));
  router.add("POST", "/nodes/{node}/lxc/{vmid}/template", lxcTemplate);
  router.add("POST", "/nodes/{node}/lxc/{vmid}/clone", cloneCt);
}

