// What pve-container's update_pct_config refuses before it writes a change (500s, after the
// lock and digest checks): deleting a required or read-only option, touching a mount point
// of a protected CT, a mount point on a storage without `rootdir` content.
import { volumeOf } from "../../pve/index.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";
import { findStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { newDiskStorage } from "./config-permissions.js";
import { sim } from "./context.js";

const REQUIRED = new Set(["memory", "rootfs", "ostype"]);

/** PVE::CGroup::clamp_cpu_shares on a cgroup v2 host (PVE 9 has no other): 1..10000. */
export function clampCpuUnits(units: number): number {
  return Math.min(10_000, Math.max(1, units));
}

function checkDelete(guest: GuestState, key: string): void {
  // deleting an unset key only warns, so none of the checks below apply to it
  if (guest.config[key] === undefined && guest.pending[key] === undefined) return;
  if (REQUIRED.has(key)) throw new PveApiError(500, `unable to delete required option '${key}'`);
  if (/^(unused|mp)\d+$/.test(key) && guest.config.protection === 1) {
    throw new PveApiError(500, `can't remove CT ${guest.vmid} drive '${key}'`);
  }
  if (key === "unprivileged") throw new PveApiError(500, `unable to delete read-only option: '${key}'`);
}

function checkSet(ctx: HandlerContext, guest: GuestState, key: string, value: string): void {
  if (key === "unprivileged") throw new PveApiError(500, `unable to modify read-only option: '${key}'`);
  if (key !== "rootfs" && !/^mp\d+$/.test(key)) return;
  if (guest.config.protection === 1) throw new PveApiError(500, `can't update CT ${guest.vmid} drive '${key}'`);
  const volume = volumeOf(value) ?? "";
  if (volume.startsWith("/")) return; // a bind or device mount: no storage involved
  const storageId = newDiskStorage(value, undefined) ?? volume.split(":")[0] ?? "";
  const storage = findStorage(sim(ctx).state, storageId);
  if (!storage) throw new PveApiError(500, `storage '${storageId}' does not exist`);
  if (!storage.content.includes("rootdir")) {
    throw new PveApiError(500, `storage '${storageId}' does not allow content type 'rootdir' (Container)`);
  }
  if (newDiskStorage(value, undefined) !== undefined && (ctx.auth.userid !== "root@pam" || ctx.auth.tokenid !== undefined)) {
    ctx.checkPermission(`/storage/${storageId}`, ["Datastore.AllocateSpace"]);
  }
}

/** The container-only refusals of a config update, in update_pct_config's order (deletes first). */
export function checkLxcUpdate(ctx: HandlerContext, guest: GuestState, set: GuestConfig, deletes: string[]): void {
  for (const key of deletes) checkDelete(guest, key);
  for (const key of Object.keys(set).sort()) checkSet(ctx, guest, key, String(set[key]));
}
