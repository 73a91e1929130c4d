// Where each guest of a node being drained goes. PVE's migrateall moves every guest to one
// target the operator names, whatever fits there; a drain plan instead places each guest on a
// node that has what it stands on (its storages, its bridges) and, for a running guest, the
// memory it uses, spreading the load: running guests largest first, each on the fitting node
// with the most memory left; stopped guests (they use no memory until started) on the fitting
// node that has received the fewest. What fits nowhere stays, with the reason per node.
import { humanSize } from "../resources/formats.js";

export interface DrainGuest {
  vmid: number;
  name: string;
  running: boolean;
  /** Bytes the guest holds on a node while it runs (its configured memory). */
  memory: number;
  /** Storages its volumes are on: each must exist on the target (local disks are copied to the same id). */
  storages: string[];
  /** Bridges or vnets its NICs use: each must exist on the target. */
  bridges: string[];
  /** Moving it while it runs restarts it (a container): `onlineOnly` leaves it. */
  restartsWhenMoved: boolean;
  /** Why PVE would refuse to move it at all (a local device, pinned PCI), when it would. */
  blocked?: string;
}

export interface DrainTarget {
  name: string;
  online: boolean;
  /** Bytes of memory free on the node now. */
  memoryFree: number;
  storages: string[];
  bridges: string[];
}

export interface DrainOptions {
  /** Only moves that keep running guests running (no container restarts). */
  onlineOnly?: boolean;
}

export interface DrainMove {
  guest: DrainGuest;
  target: string;
}

export interface DrainLeft {
  guest: DrainGuest;
  reason: string;
}

export interface DrainPlacement {
  moves: DrainMove[];
  left: DrainLeft[];
}

interface Slot {
  target: DrainTarget;
  memoryLeft: number;
  received: number;
}

/** Why `guest` cannot go to this node, or undefined when it fits. */
function misfit(guest: DrainGuest, slot: Slot): string | undefined {
  const missingStorage = guest.storages.filter((s) => !slot.target.storages.includes(s));
  if (missingStorage.length > 0) return `no storage ${missingStorage.join(", ")}`;
  const missingBridge = guest.bridges.filter((b) => !slot.target.bridges.includes(b));
  if (missingBridge.length > 0) return `no bridge ${missingBridge.join(", ")}`;
  if (guest.running && slot.memoryLeft < guest.memory) {
    return `${humanSize(Math.max(0, slot.memoryLeft))} memory free, it needs ${humanSize(guest.memory)}`;
  }
  return undefined;
}

/** Running guests first, largest first (the hardest to fit); then stopped ones; vmid breaks ties. */
function placingOrder(a: DrainGuest, b: DrainGuest): number {
  if (a.running !== b.running) return a.running ? -1 : 1;
  return b.memory - a.memory || a.vmid - b.vmid;
}

/** Among fitting nodes: the most memory left for a running guest, the fewest received for a stopped one. */
function better(guest: DrainGuest, a: Slot, b: Slot): Slot {
  const primary = guest.running ? b.memoryLeft - a.memoryLeft : a.received - b.received;
  if (primary !== 0) return primary < 0 ? a : b;
  return a.target.name <= b.target.name ? a : b;
}

function place(guest: DrainGuest, slots: Slot[], options: DrainOptions): DrainMove | DrainLeft {
  if (guest.blocked !== undefined) return { guest, reason: guest.blocked };
  if (options.onlineOnly && guest.running && guest.restartsWhenMoved) {
    return { guest, reason: "moving it restarts it (a container cannot move while it runs), and --online-only was given" };
  }
  if (slots.length === 0) return { guest, reason: "no online node to move it to" };
  let best: Slot | undefined;
  const reasons: string[] = [];
  for (const slot of slots) {
    const why = misfit(guest, slot);
    if (why !== undefined) reasons.push(`${slot.target.name}: ${why}`);
    else best = best === undefined ? slot : better(guest, best, slot);
  }
  if (best === undefined) return { guest, reason: `fits on no node (${reasons.join("; ")})` };
  if (guest.running) best.memoryLeft -= guest.memory;
  best.received += 1;
  return { guest, target: best.target.name };
}

/** Each guest's target, or why it stays. `targets` are the nodes the operator allows (the drained node excluded). */
export function placeDrain(guests: DrainGuest[], targets: DrainTarget[], options: DrainOptions = {}): DrainPlacement {
  const slots: Slot[] = targets.filter((t) => t.online).map((target) => ({ target, memoryLeft: target.memoryFree, received: 0 }));
  const placement: DrainPlacement = { moves: [], left: [] };
  for (const guest of [...guests].sort(placingOrder)) {
    const result = place(guest, slots, options);
    if ("target" in result) placement.moves.push(result);
    else placement.left.push(result);
  }
  return placement;
}
