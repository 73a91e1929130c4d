// One read of the cluster: GET /cluster/resources (nodes, storages, guests in one call), then
// the config of each guest that matters, concurrently and bounded.
import { getClusterResources } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { GuestType } from "../plan/intent.js";
import { isGuestType, kindOfType, type LiveGuest, type PowerState } from "../resources/index.js";
import { parseTags } from "../resources/formats.js";
import { mapConcurrent } from "../util/concurrency.js";
import { errorText } from "./retry-policy.js";

export interface NodeInfo {
  node: string;
  online: boolean;
  maxcpu?: number;
  /** Memory in use and in all, in bytes (listed only to those with Sys.Audit on the node). */
  mem?: number;
  maxmem?: number;
}

export interface StorageInfo {
  storage: string;
  node: string;
  content: string[];
  available: boolean;
  shared: boolean;
  /** The storage's plugin type (`lvm`, `lvmthin`, `dir`, `zfspool` ...), when PVE lists it. */
  type?: string;
}

/** A guest as /cluster/resources lists it (before its config is read). */
export interface GuestSummary {
  vmid: number;
  type: GuestType;
  node: string;
  status: PowerState;
  name?: string;
  tags: string[];
  lock?: string;
  template: boolean;
  /** The pool the guest belongs to (PVE lists it with the guest). */
  pool?: string;
  /** The state of its HA resource (PVE's `hastate`); undefined: not an HA resource. */
  hastate?: string;
}

export interface ClusterSnapshot {
  nodes: Map<string, NodeInfo>;
  storages: StorageInfo[];
  guests: GuestSummary[];
}

export async function readCluster(client: PveClient): Promise<ClusterSnapshot> {
  const entries = await getClusterResources(client);
  const nodes = new Map<string, NodeInfo>();
  const storages: StorageInfo[] = [];
  const guests: GuestSummary[] = [];
  for (const e of entries ?? []) {
    if (e.type === "node" && e.node) {
      nodes.set(e.node, {
        node: e.node,
        online: e.status === "online",
        ...(e.maxcpu !== undefined ? { maxcpu: e.maxcpu } : {}),
        ...(e.mem !== undefined && e.maxmem !== undefined ? { mem: e.mem, maxmem: e.maxmem } : {}),
      });
    } else if (e.type === "storage" && e.storage && e.node) {
      storages.push({
        storage: e.storage,
        node: e.node,
        content: (e.content ?? "").split(",").filter((c) => c !== ""),
        available: e.status === "available",
        shared: Boolean(e.shared),
        ...(e.plugintype !== undefined ? { type: e.plugintype } : {}),
      });
    } else if (e.type !== undefined && isGuestType(e.type) && e.vmid !== undefined && e.node) {
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
        ...(e.hastate ? { hastate: e.hastate } : {}),
      });
    }
  }
  return { nodes, storages, guests };
}

/** Reads one guest's config with its pending section (GET .../pending), into its kind's live model. */
export async function readGuest(client: PveClient, guest: GuestSummary): Promise<LiveGuest> {
  const kind = kindOfType(guest.type);
  // Identity matches only guests of a kind pvectl manages; anything else never gets here.
  if (kind === undefined) throw new Error(`vmid ${guest.vmid} is a ${guest.type} guest, which pvectl does not manage`);
  const meta = {
    vmid: guest.vmid,
    node: guest.node,
    status: guest.status,
    ...(guest.lock ? { lock: guest.lock } : {}),
    template: guest.template,
    ...(guest.pool !== undefined ? { pool: guest.pool } : {}),
    ...(guest.hastate !== undefined ? { ha: { sid: `${kind.haPrefix}:${guest.vmid}`, state: guest.hastate } } : {}),
  };
  const entries = await kind.read.pending(client, guest.node, guest.vmid);
  const live = kind.fromPending(meta, entries);
  if (live.digest !== undefined) return live;
  // A server without the digest entry in /pending: the config read carries it.
  const config = await kind.read.config(client, guest.node, guest.vmid);
  return kind.fromConfig(meta, config, live.pendingKeys);
}

export const DEFAULT_READ_CONCURRENCY = 16;

export async function readGuests(
  client: PveClient,
  guests: GuestSummary[],
  concurrency = DEFAULT_READ_CONCURRENCY,
): Promise<Map<number, LiveGuest>> {
  const lives = await mapConcurrent(guests, concurrency, (g) => readGuest(client, g));
  return new Map(lives.map((l) => [l.vmid, l]));
}

/** Per-guest outcome of reading many guests: one guest that cannot be read never fails the others. */
export interface GuestReads {
  live: Map<number, LiveGuest>;
  /** Listed at first, no longer listed when asked again: deleted between the listing and its read. */
  gone: Set<number>;
  /** Still listed, but its read failed twice: why, for that guest alone. */
  failed: Map<number, string>;
}

/**
 * Reads each guest's config like readGuests, but per guest: a guest whose read fails (a 500
 * on /pending because its config file is gone: deleted by someone meanwhile) is looked up in
 * a fresh listing once; gone from it, it is reported `gone`; still there, it is read once more
 * and reported `failed` if that fails too.
 */
export async function readGuestsPerGuest(
  client: PveClient,
  guests: GuestSummary[],
  concurrency = DEFAULT_READ_CONCURRENCY,
): Promise<GuestReads> {
  const reads: GuestReads = { live: new Map(), gone: new Set(), failed: new Map() };
  const attempt = (g: GuestSummary) =>
    readGuest(client, g).then(
      (live) => ({ g, live }),
      (err: unknown) => ({ g, err }),
    );
  const first = await mapConcurrent(guests, concurrency, attempt);
  const retry: GuestSummary[] = [];
  for (const r of first) {
    if ("live" in r) reads.live.set(r.g.vmid, r.live);
    else retry.push(r.g);
  }
  if (retry.length === 0) return reads;
  const listed = new Set((await readCluster(client)).guests.map((g) => g.vmid));
  const again = await mapConcurrent(
    retry.filter((g) => listed.has(g.vmid)),
    concurrency,
    attempt,
  );
  for (const g of retry) if (!listed.has(g.vmid)) reads.gone.add(g.vmid);
  for (const r of again) {
    if ("live" in r) reads.live.set(r.g.vmid, r.live);
    else reads.failed.set(r.g.vmid, `could not read guest ${r.g.vmid} on ${r.g.node}: ${errorText(r.err).split("\n")[0]}`);
  }
  return reads;
}
