// The config-file lock of a guest (flock on /var/lock/qemu-server/lock-<vmid>.conf), which
// qemu-server holds for the length of some tasks. Unlike the config's `lock` key it never
// shows in the config: a caller only meets it as "can't lock file … - got timeout" once the
// holder outlasts its wait. Modelled holders: a VM clone holds its source's lock, shared while
// the source is stopped (so clones of a template run side by side) and exclusive while it runs
// (so clones of a running VM go one at a time). Other operations need it exclusive.
// Held in memory only: a restart of the simulator ends every task anyway.
import { PveApiError } from "../contract.js";
import type { ClusterState, GuestType } from "./types.js";

interface Holders {
  exclusive: boolean;
  count: number;
}

const held = new WeakMap<ClusterState, Map<number, Holders>>();

function table(state: ClusterState): Map<number, Holders> {
  let map = held.get(state);
  if (!map) {
    map = new Map();
    held.set(state, map);
  }
  return map;
}

/** Takes the lock if it is free (or shared and wanted shared); false when it would wait. */
export function tryFlock(state: ClusterState, vmid: number, exclusive: boolean): boolean {
  const map = table(state);
  const current = map.get(vmid);
  if (current && (exclusive || current.exclusive)) return false;
  map.set(vmid, { exclusive, count: (current?.count ?? 0) + 1 });
  return true;
}

export function releaseFlock(state: ClusterState, vmid: number): void {
  const map = table(state);
  const current = map.get(vmid);
  if (!current) return;
  if (current.count <= 1) map.delete(vmid);
  else current.count -= 1;
}

export function flockHeld(state: ClusterState, vmid: number): boolean {
  return table(state).has(vmid);
}

/** PVE's message when the config-file lock stays taken past the wait. */
export function flockTimeout(type: GuestType, vmid: number): string {
  const file = type === "qemu" ? `/var/lock/qemu-server/lock-${vmid}.conf` : `/run/lock/lxc/pve-config-${vmid}.lock`;
  return `can't lock file '${file}' - got timeout`;
}

/** Fails a sync call (500) while another task holds the guest's lock. */
export function assertFlockFree(state: ClusterState, type: GuestType, vmid: number): void {
  if (flockHeld(state, vmid)) throw new PveApiError(500, flockTimeout(type, vmid));
}

/**
 * For a task that takes the lock when it starts: looked at when the task is started (the
 * worker's wait is over long before the holder's end), the returned check fails the task's work.
 */
export function flockAtStart(state: ClusterState, type: GuestType, vmid: number): () => void {
  const blocked = flockHeld(state, vmid);
  return () => {
    if (blocked) throw new PveApiError(500, flockTimeout(type, vmid));
  };
}
