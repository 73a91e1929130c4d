// POST /nodes/{node}/qemu: create a VM (config locked with `lock: create` while qmcreate runs).
import { inAllocationOrder, isCdrom, isDiskKey } from "../cluster/drives.js";
import { normaliseValue } from "../cluster/guest-config.js";
import { flat } from "../cluster/ids.js";
import type { SimCluster } from "../cluster/model.js";
import type { ConfigValue, GuestConfig } from "../cluster/types.js";
import { findStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { checkNewDiskStorages, checkQemuOptionPermissions } from "./config-permissions.js";
import { flag, nodeParam, sim, str, vmidParam } from "./context.js";
import { applyHaState } from "./ha.js";
import { freeOnFailure, removeGuest, reserveGuest } from "./new-guest.js";
import { withCreatePool } from "./pool-checks.js";
import { startVm } from "./qemu-power.js";
import { restoreOnCreate } from "./restore.js";
import { validateQemuSshKeys } from "./ssh-keys.js";

/** Create-only parameters that are not written to the config. */
const CREATE_CONTROL = new Set([
  "node",
  "vmid",
  "start",
  "storage",
  "pool",
  "archive",
  "force",
  "unique",
  "bwlimit",
  "live-restore",
  "import-working-storage",
  "ha-managed",
]);

export const QEMU_VERSION = "10.1.2";

const BUS_ORDER = ["ide", "sata", "scsi", "virtio"];

function slotRank(key: string): number {
  const m = /^([a-z]+)(\d+)$/.exec(key);
  if (!m) return 1e9;
  return BUS_ORDER.indexOf(m[1] ?? "") * 100 + Number(m[2]);
}

/** PVE's default boot order: first disk, first CD-ROM, first NIC. */
export function defaultBootOrder(config: GuestConfig): string | undefined {
  const drives = Object.keys(config)
    .filter((k) => isDiskKey("qemu", k) && k !== "efidisk0" && k !== "tpmstate0")
    .sort((a, b) => slotRank(a) - slotRank(b));
  const disk = drives.find((k) => !isCdrom(String(config[k])));
  const cdrom = drives.find((k) => isCdrom(String(config[k])));
  const net = Object.keys(config)
    .filter((k) => /^net\d+$/.test(k))
    .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))[0];
  const order = [disk, cdrom, net].filter((k): k is string => k !== undefined);
  return order.length > 0 ? flat("order=", order.join(";")) : undefined;
}

export function checkPoolExists(model: SimCluster, pool: string | undefined): void {
  if (pool !== undefined && !model.pool(pool)) throw new PveApiError(500, `pool '${pool}' does not exist`);
}

/** VM.Allocate on /vms/<vmid>, or on the pool the guest is created in. */
export function checkAllocate(ctx: HandlerContext, vmid: number, pool: string | undefined): void {
  if (pool !== undefined && ctx.hasPermission(`/pool/${pool}`, ["VM.Allocate"])) return;
  ctx.checkPermission(`/vms/${vmid}`, ["VM.Allocate"]);
}

function createVm(ctx: HandlerContext): string {
  const model = sim(ctx);
  const node = nodeParam(ctx);
  const vmid = vmidParam(ctx);
  model.requireNode(node);
  const pool = str(ctx, "pool");
  const archive = str(ctx, "archive");
  validateQemuSshKeys(str(ctx, "sshkeys"));
  if (archive !== undefined) {
    checkPoolExists(model, pool);
    return restoreOnCreate(ctx, model, "qemu", archive, CREATE_CONTROL);
  }
  checkAllocate(ctx, vmid, pool);
  const inPool = withCreatePool(ctx, vmid, pool);
  if (flag(ctx, "start")) inPool.checkPermission(`/vms/${vmid}`, ["VM.PowerMgmt"]);
  checkPoolExists(model, pool);
  // qemu-server: creating into a pool modifies it (check_perm_modify on /pool/<id>).
  if (pool !== undefined) ctx.checkPermission(`/pool/${pool}`, ["Permissions.Modify", "Pool.Allocate"], true);
  const defaultStorage = str(ctx, "storage");
  if (defaultStorage !== undefined) ctx.checkPermission(`/storage/${defaultStorage}`, ["Datastore.AllocateSpace"]);

  const requested: GuestConfig = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || CREATE_CONTROL.has(key)) continue;
    requested[key === "cdrom" ? "ide2" : key] = key === "cdrom" ? `${value},media=cdrom` : value;
  }
  for (const key of Object.keys(requested)) {
    // `scsi0: 32` allocates 32 GiB on the default storage
    const value = String(requested[key]);
    if (!isDiskKey("qemu", key) || !/^\d+(\.\d+)?(,|$)/.test(value)) continue;
    if (defaultStorage === undefined) throw new PveApiError(500, "no storage ID specified (and no default storage)");
    requested[key] = `${defaultStorage}:${value}`;
  }
  checkQemuOptionPermissions(inPool, vmid, Object.keys(requested), requested, { check: "create" });
  checkNewDiskStorages(
    ctx,
    requested,
    (k) => isDiskKey("qemu", k),
    "images",
    (id) => findStorage(model.state, id)?.content,
  );
  model.assertVmidFree(vmid, "VM");
  const guest = reserveGuest(model, { vmid, type: "qemu", node, agentDelay: model.state.agentDelay }, "create");
  const start = flag(ctx, "start");
  const haManagedParam = flag(ctx, "ha-managed");

  return ctx.tasks.start({
    node,
    type: "qmcreate",
    id: String(vmid),
    kind: "create",
    onFailure: () => removeGuest(model, guest),
    work: (task) => {
      try {
        freeOnFailure(
          model,
          node,
          () => removeGuest(model, guest),
          (allocated) => {
            const config: GuestConfig = {};
            for (const key of inAllocationOrder("qemu", Object.keys(requested))) {
              const value = requested[key] as ConfigValue;
              config[key] = normaliseValue(model, guest, key, value, allocated);
              for (const v of allocated.filter((a) => String(config[key]).startsWith(a.volid))) {
                task.log(
                  `  ${key}: successfully created disk '${v.volid},size=${String(config[key]).split("size=")[1]?.split(",")[0] ?? ""}'`,
                );
              }
            }
            if (config.boot === undefined) {
              const boot = defaultBootOrder(config);
              if (boot) config.boot = boot;
            }
            if (config.smbios1 === undefined) config.smbios1 = flat("uuid=", model.newUuid());
            if (config.vmgenid === undefined) config.vmgenid = model.newUuid();
            else if (config.vmgenid === "0") delete config.vmgenid;
            config.meta = flat("creation-qemu=", QEMU_VERSION, ",ctime=", model.now());
            guest.config = config;
            if (pool !== undefined) model.addToPool(pool, vmid);
          },
        );
      } catch (err) {
        throw new Error(`unable to create VM ${vmid} - ${err instanceof Error ? err.message : String(err)}`);
      }
      // qemu-server's create_vm: once the config is written and unlocked, the create worker
      // prints "Execute autostart" and calls the vm_start API, which forks a qmstart task of its
      // own (own duration, own worker slot); qmcreate does not wait for it, and a failed start
      // leaves the created VM in place. An HA-managed VM is started by the HA stack instead.
      if (haManagedParam) applyHaState(model, ctx, guest, start ? "started" : "stopped");
      else if (start) {
        task.log("Execute autostart");
        ctx.tasks.start({ node, type: "qmstart", id: String(vmid), kind: "start", work: () => startVm(model, guest, false) });
      }
    },
  });
}

export function registerQemuCreate(router: Router): void {
  router.add("POST", "/nodes/{node}/qemu", createVm);
}
