// Which privilege a QEMU config option needs (qemu-server's per-option check on create and
// update: the endpoint schema only demands "any VM.Config.*", the handler checks each key).
import { type DriveCheck, driveMedia, drivePrivileges, isUnusedKey, parseNewVolume, volumeOf } from "../../pve/index.js";
import { isDiskKey } from "../cluster/drives.js";
import { nicBridge } from "../cluster/nics.js";
import type { GuestConfig } from "../cluster/types.js";
import { bridgeZone } from "../cluster/sdn.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { sim } from "./context.js";

const CPU = new Set(["cores", "cpu", "cpulimit", "cpuunits", "numa", "smp", "sockets", "vcpus", "affinity"]);
const MEMORY = new Set(["memory", "balloon", "shares"]);
const HWTYPE = new Set([
  "acpi",
  "hotplug",
  "kvm",
  "machine",
  "scsihw",
  "smbios1",
  "tablet",
  "vga",
  "watchdog",
  "audio0",
  "rng0",
  "ivshmem",
  "spice_enhancements",
  "vmgenid",
  "arch",
  "keephugepages",
  "hugepages",
  "allow-ksm",
  "amd-sev",
  "intel-tdx",
]);
const GENERAL = new Set([
  "agent",
  "autostart",
  "bios",
  "description",
  "keyboard",
  "localtime",
  "migrate_downtime",
  "migrate_speed",
  "name",
  "onboot",
  "ostype",
  "protection",
  "reboot",
  "startdate",
  "startup",
  "tdf",
  "template",
  "tags",
  "hookscript",
  "meta",
]);
const DISK = new Set(["boot", "bootdisk", "vmstatestorage"]);
const CLOUDINIT = new Set(["cicustom", "cipassword", "citype", "ciuser", "ciupgrade", "nameserver", "searchdomain", "sshkeys"]);

/** The storage a `STORAGE:SIZE` (or bare SIZE with a default storage) value allocates on. */
export function newDiskStorage(value: string, defaultStorage: string | undefined): string | undefined {
  const volume = volumeOf(value) ?? "";
  const cloudinit = /^([^/:\s]+):cloudinit$/.exec(volume);
  if (cloudinit) return cloudinit[1];
  const allocation = parseNewVolume(volume);
  if (!allocation) return undefined;
  return allocation.storage ?? defaultStorage;
}

/**
 * An ISO image is read from its storage: pve-storage's check_volume_access wants
 * Datastore.Allocate there, or at least Datastore.AllocateSpace or Datastore.Audit (ISOs may be sensitive).
 */
function checkIsoAccess(ctx: HandlerContext, value: unknown): void {
  const iso = /^([a-zA-Z][\w\-.]*):iso\//.exec(String(value ?? "").split(",")[0] ?? "");
  if (!iso) return;
  const storage = `/storage/${iso[1]}`;
  if (ctx.hasPermission(storage, ["Datastore.Allocate"])) return;
  ctx.checkPermission(storage, ["Datastore.AllocateSpace", "Datastore.Audit"], true);
}

/**
 * Which qemu-server handler checks the drives: create_vm (no VM.Config.* per drive), or
 * update_vm, which checks a drive by its new value and by the value the slot holds now
 * (`config`: the current config, `pending`: its pending values, used for a delete).
 */
export type DriveCheckContext = { check: "create" } | { check: "update"; config: GuestConfig; pending: GuestConfig };

/** qemu-server's `$check_drive_perms` for one drive value: its privileges from the shared table (pve/drive-privileges.ts). */
function checkDrive(ctx: HandlerContext, path: string, check: DriveCheck, value: unknown): void {
  const privileges = drivePrivileges(check, driveMedia(String(value)));
  if (privileges.length > 0) ctx.checkPermission(path, [...privileges]);
}

/** A drive set or deleted: the new value, else the old one (a delete, a revert), and the old value a set replaces. */
function checkDriveKey(ctx: HandlerContext, path: string, key: string, value: unknown, drives: DriveCheckContext): void {
  if (drives.check === "create") {
    if (value !== undefined) checkDrive(ctx, path, "create", value);
    return;
  }
  const current = drives.config[key];
  const old = current ?? drives.pending[key];
  if (value === undefined) {
    if (old !== undefined) checkDrive(ctx, path, "update", old);
    return;
  }
  if (current !== undefined) checkDrive(ctx, path, "update", current);
  checkDrive(ctx, path, "update", value);
}

/**
 * Checks the caller's privileges for setting or deleting these QEMU options on /vms/<vmid>
 * (root@pam may do everything). `values` holds the new values of the keys being set.
 */
export function checkQemuOptionPermissions(
  ctx: HandlerContext,
  vmid: number,
  keys: string[],
  values: Record<string, unknown>,
  drives: DriveCheckContext,
): void {
  if (ctx.auth.userid === "root@pam" && ctx.auth.tokenid === undefined) return;
  const path = `/vms/${vmid}`;
  for (const key of keys) {
    const value = values[key];
    if (isDiskKey("qemu", key)) {
      checkDriveKey(ctx, path, key, value, drives);
      checkIsoAccess(ctx, value);
    } else if (isUnusedKey(key) || DISK.has(key)) ctx.checkPermission(path, ["VM.Config.Disk"]);
    else if (CPU.has(key) || /^numa\d+$/.test(key)) ctx.checkPermission(path, ["VM.Config.CPU"]);
    else if (MEMORY.has(key)) ctx.checkPermission(path, ["VM.Config.Memory"]);
    else if (HWTYPE.has(key)) ctx.checkPermission(path, ["VM.Config.HWType"]);
    else if (GENERAL.has(key)) {
      ctx.checkPermission(path, ["VM.Config.Options"]);
      if (key === "startup") ctx.checkPermission("/", ["Sys.Modify"]);
    } else if (key === "freeze") ctx.checkPermission(path, ["VM.PowerMgmt"]);
    else if (/^net\d+$/.test(key)) {
      ctx.checkPermission(path, ["VM.Config.Network"]);
      const bridge = value !== undefined ? nicBridge("qemu", key, String(value)) : undefined;
      // PVE's check_sdn_bridge: an applied vnet is checked on its zone
      if (bridge) ctx.checkPermission(`/sdn/zones/${bridgeZone(sim(ctx).state, bridge)}/${bridge}`, ["SDN.Use"]);
    } else if (CLOUDINIT.has(key) || /^ipconfig\d+$/.test(key)) {
      ctx.checkPermission(path, ["VM.Config.Cloudinit", "VM.Config.Network"], true);
    } else if (/^(serial|usb)\d+$/.test(key)) {
      const text = String(value ?? "");
      const virtual = value === undefined || text === "socket" || /(^|,)(mapping=|host=spice)/i.test(text) || /^spice$/i.test(text);
      if (!virtual) throw new PveApiError(500, `only root can set '${key}' config for real devices`);
      ctx.checkPermission(path, ["VM.Config.HWType"]);
    } else if (/^hostpci\d+$/.test(key)) {
      if (value !== undefined && !/(^|,)mapping=/.test(String(value))) {
        throw new PveApiError(500, `only root can set '${key}' config for non-mapped devices`);
      }
      ctx.checkPermission(path, ["VM.Config.HWType"]);
    } else if (/^(parallel|virtiofs)\d+$/.test(key) || key === "args" || key === "lock") {
      throw new PveApiError(500, `only root can set '${key}' config`);
    } else ctx.checkPermission(path, ["VM.Config.HWType"]);
  }
}

/**
 * Storage checks for new volumes (`STORAGE:SIZE`): Datastore.AllocateSpace on the storage, and
 * the storage must hold this content (PVE answers 400 on `storage`).
 */
export function checkNewDiskStorages(
  ctx: HandlerContext,
  values: Record<string, unknown>,
  isDisk: (key: string) => boolean,
  content: "images" | "rootdir",
  storageContent: (id: string) => string[] | undefined,
  defaultStorage?: string,
): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || !isDisk(key)) continue;
    if (/media=cdrom/.test(String(value)) && !/:cloudinit(,|$)/.test(String(value))) continue;
    const storage = newDiskStorage(String(value), defaultStorage);
    if (storage === undefined) continue;
    const kinds = storageContent(storage);
    if (kinds === undefined) throw new PveApiError(500, `storage '${storage}' does not exist`);
    if (ctx.auth.userid !== "root@pam" || ctx.auth.tokenid !== undefined) {
      ctx.checkPermission(`/storage/${storage}`, ["Datastore.AllocateSpace"]);
    }
    if (!kinds.includes(content)) {
      throw new PveApiError(400, "Parameter verification failed.", {
        storage:
          content === "images"
            ? `storage '${storage}' does not support vm images`
            : `storage '${storage}' does not support container directories`,
      });
    }
  }
}

/** check_bridge_access: SDN.Use on the zone path of a container NIC's bridge. */
function checkLxcBridge(ctx: HandlerContext, key: string, value: unknown): void {
  const bridge = value !== undefined ? nicBridge("lxc", key, String(value)) : undefined;
  if (bridge) ctx.checkPermission(`/sdn/zones/${bridgeZone(sim(ctx).state, bridge)}/${bridge}`, ["SDN.Use"]);
}

/**
 * pve-container's per-option check for container config updates (check_ct_modify_config_perm):
 * `values` holds the new values of the keys set, `old` the config before (a NIC's old and new
 * bridge are both checked).
 */
export function checkLxcOptionPermissions(
  ctx: HandlerContext,
  vmid: number,
  keys: string[],
  values: Record<string, unknown> = {},
  old: Record<string, unknown> = {},
): void {
  if (ctx.auth.userid === "root@pam" && ctx.auth.tokenid === undefined) return;
  const path = `/vms/${vmid}`;
  for (const key of keys) {
    if (/^(rootfs|mp\d+|unused\d+)$/.test(key)) ctx.checkPermission(path, ["VM.Config.Disk"]);
    else if (key === "memory" || key === "swap") ctx.checkPermission(path, ["VM.Config.Memory"]);
    else if (key === "cores" || key === "cpulimit" || key === "cpuunits") ctx.checkPermission(path, ["VM.Config.CPU"]);
    else if (/^net\d+$/.test(key)) {
      ctx.checkPermission(path, ["VM.Config.Network"]);
      checkLxcBridge(ctx, key, old[key]);
      checkLxcBridge(ctx, key, values[key]);
    } else if (key === "nameserver" || key === "searchdomain" || key === "hostname") ctx.checkPermission(path, ["VM.Config.Network"]);
    else if (/^(dev\d+|lxc\..*)$/.test(key) || key === "lock") {
      throw new PveApiError(500, `only root can set '${key}' config`);
    } else ctx.checkPermission(path, ["VM.Config.Options"]);
  }
}
