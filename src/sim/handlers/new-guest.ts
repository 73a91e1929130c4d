// Guests that come into being through a task (create, clone, restore). The vmid is taken
// as soon as the request is accepted (a config holding only the lock, as PVE writes it
// first), and a failed task leaves nothing behind: the guest goes and every volume the task
// allocated is freed.
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState, GuestType, VolumeState } from "../cluster/types.js";
import { removeVolume } from "../cluster/volumes.js";

export interface NewGuest {
  vmid: number;
  type: GuestType;
  node: string;
  /** Seconds after start until the guest agent answers. */
  agentDelay: number;
}

/** A stopped guest with the given config, not yet in the cluster. */
export function blankGuest(init: NewGuest, config: GuestConfig): GuestState {
  // Spelled out rather than spread: objects built by spreading get a hidden class of their
  // own in V8, and with thousands of guests every per-guest loop (/cluster/resources, node
  // usage) then ran on megamorphic property lookups, several times slower.
  return {
    vmid: init.vmid,
    type: init.type,
    node: init.node,
    config,
    pending: {},
    pendingDelete: {},
    snapshots: [],
    status: "stopped",
    qmpstatus: "stopped",
    agentDelay: init.agentDelay,
  };
}

/** Adds a guest whose config holds only `lock` (`create`, `clone`) while its task runs. */
export function reserveGuest(model: SimCluster, init: NewGuest, lock: string): GuestState {
  const guest = blankGuest(init, { lock });
  model.state.guests.push(guest);
  return guest;
}

export function removeGuest(model: SimCluster, guest: GuestState): void {
  model.state.guests = model.state.guests.filter((g) => g !== guest);
}

/**
 * Runs a task's work with a list to collect the volumes it allocates; when the work throws,
 * those volumes are freed on `node`, `undo` runs and the error is thrown on.
 */
export function freeOnFailure(model: SimCluster, node: string, undo: () => void, work: (allocated: VolumeState[]) => void): void {
  const allocated: VolumeState[] = [];
  try {
    work(allocated);
  } catch (err) {
    for (const v of allocated) removeVolume(model.state, v.volid, node);
    undo();
    throw err;
  }
}
