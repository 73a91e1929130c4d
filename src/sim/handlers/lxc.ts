// POST /nodes/{node}/lxc (`vzcreate`) as pve-container's create_vm does it; restore=1 goes to
// restore.ts. Power, clone/template, resize and move_volume live in lxc-*.ts.
import { inAllocationOrder, isDiskKey } from "../cluster/drives.js";
import { normaliseValue } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import type { ConfigValue, GuestConfig, GuestState, VolumeState } from "../cluster/types.js";
import { findStorage, findVolume, requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { checkNewDiskStorages, newDiskStorage } from "./config-permissions.js";
import { flag, nodeParam, sim, str, vmidParam } from "./context.js";
import { applyHaState } from "./ha.js";
import { registerLxcClone } from "./lxc-clone.js";
import { clampCpuUnits } from "./lxc-config-checks.js";
import { checkLxcCreatePermissions } from "./lxc-create-permissions.js";
import { registerLxcMoveVolume } from "./lxc-move-volume.js";
import { checkTemplateAccess } from "./lxc-ostemplate.js";
import { registerLxcPower, startContainer } from "./lxc-power.js";
import { registerLxcResize } from "./lxc-resize.js";
import { freeOnFailure, removeGuest, reserveGuest } from "./new-guest.js";
import { withCreatePool } from "./pool-checks.js";
import { checkPoolExists } from "./qemu-create.js";
import { restoreOnCreate } from "./restore.js";
import { validateSshPublicKeys } from "./ssh-keys.js";

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

/** The request's config options, mount points given as a bare number placed on `storage`. */
function requestedConfig(ctx: HandlerContext, storage: string): GuestConfig {
  const requested: GuestConfig = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || CREATE_CONTROL.has(key) || key === "unprivileged" || /^unused\d+$/.test(key)) continue;
    // a bare number means a new volume of that many GiB on the default storage
    requested[key] = isDiskKey("lxc", key) && /^\d+(\.\d+)?$/.test(String(value)) ? `${storage}:${value}` : value;
  }
  if (requested.cpuunits !== undefined) requested.cpuunits = clampCpuUnits(Number(requested.cpuunits));
  const mountPoints = Object.keys(requested).some((k) => /^mp\d+$/.test(k));
  if (mountPoints && requested.rootfs === undefined) {
    throw new PveApiError(500, "mount points configured, but 'rootfs' not set - aborting");
  }
  requested.rootfs ??= `${storage}:4`;
  return requested;
}

/** The checks create_vm makes before it forks (errors answer the request at once). */
function checkCreate(ctx: HandlerContext, model: SimCluster, vmid: number, pool: string | undefined, unprivileged: number): void {
  if (unprivileged === 0) ctx.checkPermission("/", ["Sys.Modify"]);
  const existing = model.guest(vmid);
  if (existing) {
    throw new PveApiError(500, `${existing.type === "qemu" ? "VM" : "CT"} ${vmid} already exists on node '${existing.node}'`);
  }
  const keys = str(ctx, "ssh-public-keys");
  if (keys !== undefined) validateSshPublicKeys(keys);
  checkPoolExists(model, pool);
}

/** The config create writes: the request's options with volumes allocated, then PVE's defaults. */
function buildConfig(
  model: SimCluster,
  guest: GuestState,
  requested: GuestConfig,
  ostemplate: string,
  unprivileged: number,
  allocated: VolumeState[],
): GuestConfig {
  const config: GuestConfig = { arch: "amd64", ostype: ostypeOf(ostemplate) };
  for (const key of inAllocationOrder("lxc", Object.keys(requested))) {
    config[key] = normaliseValue(model, guest, key, requested[key] as ConfigValue, allocated);
  }
  // the template is read after the volumes exist; a missing file fails the task and frees them
  if (!findVolume(model.state, ostemplate, guest.node)) throw new Error(`can't find file '${ostemplate}'`);
  config.hostname ||= `CT${guest.vmid}`;
  config.memory ||= 512;
  config.swap ??= 512;
  // unprivileged is written only when set: a privileged CT has no `unprivileged` key
  if (unprivileged === 1) config.unprivileged = 1;
  return config;
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
  // PVE 9 creates unprivileged containers unless told otherwise (a restore keeps the archive's)
  const unprivileged = ctx.params.unprivileged === undefined ? 1 : Number(ctx.params.unprivileged);
  checkCreate(ctx, model, vmid, pool, unprivileged);
  const storage = str(ctx, "storage") ?? "local";
  const requested = requestedConfig(ctx, storage);
  // Only what the request sets is checked per option (a default rootfs is not the caller's).
  const given = Object.fromEntries(Object.entries(requested).filter(([key]) => ctx.params[key] !== undefined));
  checkLxcCreatePermissions(ctx, vmid, pool, given, unprivileged === 1);
  if (flag(ctx, "start")) withCreatePool(ctx, vmid, pool).checkPermission(`/vms/${vmid}`, ["VM.PowerMgmt"]);
  const isRoot = ctx.auth.userid === "root@pam" && ctx.auth.tokenid === undefined;
  checkTemplateAccess(model, str(ctx, "ostemplate") ?? "", "vztmpl", isRoot);
  checkNewDiskStorages(
    ctx,
    requested,
    (k) => isDiskKey("lxc", k),
    "rootdir",
    (id) => findStorage(model.state, id)?.content,
  );
  // storage_check_enabled: a storage of a new volume must be enabled on this node, at once
  for (const key of Object.keys(requested).filter((k) => isDiskKey("lxc", k))) {
    const id = newDiskStorage(String(requested[key]), undefined);
    if (id !== undefined) requireStorage(model.state, id, node);
  }
  const ostemplate = str(ctx, "ostemplate") ?? "";
  const guest = reserveGuest(model, { vmid, type: "lxc", node, agentDelay: 0 }, "create");
  const start = flag(ctx, "start");
  const haManagedParam = flag(ctx, "ha-managed");
  return ctx.tasks.start({
    node,
    type: "vzcreate",
    id: String(vmid),
    kind: "create",
    onFailure: () => removeGuest(model, guest),
    work: async (task) => {
      try {
        freeOnFailure(
          model,
          node,
          () => removeGuest(model, guest),
          (allocated) => {
            const config = buildConfig(model, guest, requested, ostemplate, unprivileged, allocated);
            task.log(`extracting archive '${ostemplate}'`);
            task.log(`Total bytes read: ${findVolume(model.state, ostemplate, node)?.size ?? 0}`);
            guest.config = config;
            if (pool !== undefined) model.addToPool(pool, vmid);
          },
        );
      } catch (err) {
        throw new Error(`unable to create CT ${vmid} - ${err instanceof Error ? err.message : String(err)}`);
      }
      // start=1 calls the start API from the worker: a vzstart task of its own, which the
      // vzcreate task does not wait for (an HA resource added with state started starts it too)
      if (start && !haManagedParam) {
        ctx.tasks.start({ node, type: "vzstart", id: String(vmid), kind: "start", work: () => startContainer(model, guest, false) });
      }
      if (haManagedParam) applyHaState(model, ctx, guest, start ? "started" : "stopped");
    },
  });
}

export function registerLxcHandlers(router: Router): void {
  router.add("POST", "/nodes/{node}/lxc", createCt);
  registerLxcPower(router);
  registerLxcClone(router);
  registerLxcResize(router);
  registerLxcMoveVolume(router);
}
