// One read of the cluster: GET /cluster/resources (nodes, storages, guests in one call), then
// the config of each guest that matters, concurrently and bounded.
import type { PveClient } from "../api/index.js";
import { liveVmFromConfig, liveVmFromPending, type PendingEntry } from "../resources/vm/live.js";
import type { LiveVm, PowerState } from "../resources/vm/model.js";
import { parseTags } from "../resources/formats.js";
import { mapConcurrent } from "../util/concurrency.js";

export interface NodeInfo {
  node: string;
  online: boolean;
  maxcpu?: number;
}

export interface StorageInfo {
  storage: string;
  node: string;
  content: string[];
  available: boolean;
  shared: boolean;
}

/** A guest as /cluster/resources lists it (before its config is read). */
export interface GuestSummary {
  vmid: number;
  type: "qemu" | "lxc";
  node: string;
  status: PowerState;
  name?: string;
  tags: string[];
  lock?: string;
  template: boolean;
  /** The pool the guest belongs to (PVE lists it with the guest). */
  pool?: string;
}

export interface ClusterSnapshot {
  nodes: Map<string, NodeInfo>;
  storages: StorageInfo[];
  guests: GuestSummary[];
}

interface ResourceEntry {
  type?: string;
  node?: string;
  status?: string;
  storage?: string;
  content?: string;
  shared?: number | boolean;
  vmid?: number;
  name?: string;
  tags?: string;
  lock?: string;
  template?: number | boolean;
  maxcpu?: number;
  pool?: string;
}

export async function readCluster(client: PveClient): Promise<ClusterSnapshot> {
  const entries = (await client.request("GET", "/cluster/resources")) as ResourceEntry[];
  const nodes = new Map<string, NodeInfo>();
  const storages: StorageInfo[] = [];
  const guests: GuestSummary[] = [];
  for (const e of entries ?? []) {
    if (e.type === "node" && e.node) {
      nodes.set(e.node, { node: e.node, online: e.status === "online", ...(e.maxcpu !== undefined ? { maxcpu: e.maxcpu } : {}) });
    } else if (e.type === "storage" && e.storage && e.node) {
      storages.push({
        storage: e.storage,
        node: e.node,
        content: (e.content ?? "").split(",").filter((c) => c !== ""),
        available: e.status === "available",
        shared: Boolean(e.shared),
      });
    } else if ((e.type === "qemu" || e.type === "lxc") && e.vmid !== undefined && e.node) {
      guests.push({
        vmid: Number(e.vmid),
        type: e.type,
        node: e.node,
        status: e.status === "running" ? "running" : "stopped",
        ...(e.name !== undefined ? { name: e.name } : {}),
        tags: parseTags(e.tags),
        ...(e.lock ? { lock: e.lock } : {}),
        template: Boolean(e.template),
        ...(e.pool ? { pool: e.pool } : {}),
      });
    }
  }
  return { nodes, storages, guests };
}

/** Reads one guest's config with its pending section (GET .../pending), into a LiveVm. */
export async function readGuest(client: PveClient, guest: GuestSummary): Promise<LiveVm> {
  const meta = {
    vmid: guest.vmid,
    node: guest.node,
    status: guest.status,
    ...(guest.lock ? { lock: guest.lock } : {}),
    template: guest.template,
    ...(guest.pool !== undefined ? { pool: guest.pool } : {}),
  };
  const entries = (await client.request("GET", `/nodes/${guest.node}/qemu/${guest.vmid}/pending`)) as PendingEntry[];
  const live = liveVmFromPending(meta, entries);
  if (live.digest !== undefined) return live;
  // A server without the digest entry in /pending: the config read carries it.
  const config = (await client.request("GET", `/nodes/${guest.node}/qemu/${guest.vmid}/config`)) as Record<string, string | number>;
  return liveVmFromConfig(meta, config, live.pendingKeys);
}

export const DEFAULT_READ_CONCURRENCY = 16;

export async function readGuests(
  client: PveClient,
  guests: GuestSummary[],
  concurrency = DEFAULT_READ_CONCURRENCY,
): Promise<Map<number, LiveVm>> {
  const lives = await mapConcurrent(guests, concurrency, (g) => readGuest(client, g));
  return new Map(lives.map((l) => [l.vmid, l]));
}
