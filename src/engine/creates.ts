// Guests in creation elsewhere in the cluster (`lock: create`, another pvectl, proxmoxer via
// nextid) have no name yet, so a spec entry without a vmid cannot tell whether one of them is
// itself. Only entries whose guest could be one of them (same node: pvectl creates on the
// spec's node) wait, until those creates are finished or the wait is over; the others are
// planned at once. The wait is bounded and reported through `onWait`.
import type { PveClient } from "../api/index.js";
import { type ClusterSnapshot, readCluster } from "./cluster.js";
import { findGuest } from "./identity.js";

export interface CreateWait {
  /** Guests in creation that some spec entry may be. */
  vmids: number[];
  elapsedMs: number;
  limitMs: number;
}

export interface SettleOptions {
  /** Longest wait; default DEFAULT_CREATE_WAIT_MS. */
  limitMs?: number;
  /** Called when the wait starts, then at most every NOTICE_MS. */
  onWait?: (wait: CreateWait) => void;
}

export const DEFAULT_CREATE_WAIT_MS = 60_000;
const NOTICE_MS = 15_000;

type Wanted = { name: string; vmid?: number; node?: string };

/** The vmids in creation that some entry of `desired` may be. */
function inCreation(desired: Wanted[], cluster: ClusterSnapshot): number[] {
  const vmids = new Set<number>();
  for (const vm of desired) {
    const match = findGuest(vm, cluster.guests);
    if (match.kind === "error") for (const id of match.creating ?? []) vmids.add(id);
  }
  return [...vmids].sort((a, b) => a - b);
}

/** Waits (bounded) for the creates some spec entry may be; returns the listing to plan with. */
export async function settleCreates(
  client: PveClient,
  cluster: ClusterSnapshot,
  desired: Wanted[],
  options: SettleOptions = {},
): Promise<ClusterSnapshot> {
  const limitMs = options.limitMs ?? DEFAULT_CREATE_WAIT_MS;
  let snapshot = cluster;
  let vmids = inCreation(desired, snapshot);
  const started = Date.now();
  let shownAt = -Infinity;
  while (vmids.length > 0) {
    const elapsedMs = Date.now() - started;
    if (elapsedMs >= limitMs) break;
    if (elapsedMs - shownAt >= NOTICE_MS) {
      options.onWait?.({ vmids, elapsedMs, limitMs });
      shownAt = elapsedMs;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(20, limitMs / 20), limitMs - elapsedMs)));
    snapshot = await readCluster(client);
    vmids = inCreation(desired, snapshot);
  }
  return snapshot;
}
