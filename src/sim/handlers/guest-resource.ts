// A guest as /cluster/resources and /pools/{poolid} list it.
//
// Listing 10,000 guests means reading 10,000 configs (name, CPUs, memory, boot-disk size,
// tags, lock) and serialising 10,000 entries on every call. Like PVE, which serves
// /cluster/resources from pmxcfs's cached VM list and pvestatd's cached status, the simulator
// keeps each guest's entry, already as JSON, with everything it was read from: the config
// (every key and value), the pending name, node, status, node liveness, pool and HA state.
// On every call those are compared with the guest as it is now, and an entry is read again
// when anything differs: comparing is several times cheaper than reading, and it holds however
// the guest was changed. Usage figures of running guests move with time and are written anew.

import { flat } from "../cluster/ids.js";
import { type GuestUsage, guestCpus, guestMaxDisk, guestMaxMem, guestName, guestUsage } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { ConfigValue, GuestState } from "../cluster/types.js";
import type { JsonRun } from "../contract.js";
import { haStatusState } from "./ha.js";

interface CachedEntry {
  // what the entry was read from
  node: string;
  status: string;
  online: boolean;
  pool: string | undefined;
  hastate: string | undefined;
  pendingName: ConfigValue | undefined;
  nameDeleted: boolean;
  keys: string[];
  values: ConfigValue[];
  // the entry: a stopped guest's whole entry (nothing in it moves), else the JSON up to the
  // usage figures (`{"id":…,"maxdisk":N`) and the JSON after them
  stopped?: string;
  head: string;
  tail: string;
  // a running guest's whole entry, for the second and start time it was made at: its usage
  // figures are a function of the entry's guest, its start time and the clock's whole second,
  // so calls within one second (a client polling, several clients) share one flat string
  // instead of each building and flattening 5,000 of them
  runningAt: number | undefined;
  runningStartedAt: number | undefined;
  running: string | undefined;
}

const cache = new WeakMap<GuestState, CachedEntry>();

const nameKey = (guest: GuestState) => (guest.type === "qemu" ? "name" : "hostname");

/** JSON.stringify's spelling of a number. */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : "null";
}

function stillValid(entry: CachedEntry, guest: GuestState, online: boolean, pool: string | undefined): boolean {
  if (entry.node !== guest.node || entry.status !== guest.status || entry.online !== online || entry.pool !== pool) return false;
  if (entry.hastate !== haStatusState(guest)) return false;
  const key = nameKey(guest);
  if (entry.pendingName !== guest.pending[key] || entry.nameDeleted !== key in guest.pendingDelete) return false;
  const cfg = guest.config;
  const keys = Object.keys(cfg);
  if (keys.length !== entry.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (k !== entry.keys[i] || cfg[k] !== entry.values[i]) return false;
  }
  return true;
}

function readEntry(model: SimCluster, guest: GuestState, online: boolean, pool: string | undefined): CachedEntry {
  const cfg = guest.config;
  const head = JSON.stringify({
    id: `${guest.type}/${guest.vmid}`,
    type: guest.type,
    vmid: guest.vmid,
    node: guest.node,
    name: guestName(guest),
    status: online ? guest.status : "unknown",
    template: cfg.template === 1 ? 1 : 0,
    maxcpu: guestCpus(model, guest),
    maxmem: guestMaxMem(guest),
    maxdisk: guestMaxDisk(guest),
  });
  const optional: Record<string, string> = {};
  if (pool) optional.pool = pool;
  if (cfg.lock !== undefined) optional.lock = String(cfg.lock);
  if (cfg.tags !== undefined) optional.tags = String(cfg.tags);
  const hastate = haStatusState(guest);
  if (hastate) optional.hastate = hastate;
  const tail = JSON.stringify(optional);
  const keys = Object.keys(cfg);
  const key = nameKey(guest);
  return {
    node: guest.node,
    status: guest.status,
    online,
    pool,
    hastate: haStatusState(guest),
    pendingName: guest.pending[key],
    nameDeleted: key in guest.pendingDelete,
    keys,
    values: keys.map((k) => cfg[k] as ConfigValue),
    // kept for the guest's lifetime, so built flat (see flat())
    head: head.slice(0, -1),
    tail: tail === "{}" ? "}" : flat(",", tail.slice(1)),
    // present from the start, so every entry keeps one hidden class
    runningAt: undefined,
    runningStartedAt: undefined,
    running: undefined,
  };
}

function usageJson(u: GuestUsage): string {
  return `,"cpu":${num(u.cpu)},"mem":${num(u.mem)},"disk":${num(u.disk)},"uptime":${num(u.uptime)},"netin":${num(u.netin)},"netout":${num(u.netout)},"diskread":${num(u.diskread)},"diskwrite":${num(u.diskwrite)}`;
}

/**
 * Guests as /cluster/resources entries, in the order given, written when the response is: the
 * entries of a slice are made, joined and dropped before the next slice's (see JsonList).
 * `withPool` false leaves out the `pool` key, as PVE's /pools/{poolid} members carry none.
 */
export function guestResources(model: SimCluster, guests: GuestState[], withPool = true): JsonRun {
  const online = new Map(model.state.nodes.map((n) => [n.name, n.online]));
  const pools = new Map<number, string>();
  if (withPool) for (const p of model.state.pools) for (const vmid of p.vmids) if (!pools.has(vmid)) pools.set(vmid, p.poolid);
  const now = model.now();
  const entry = (guest: GuestState): string => {
    const nodeOnline = online.get(guest.node) ?? false;
    const pool = pools.get(guest.vmid);
    let cached = cache.get(guest);
    if (!cached || !stillValid(cached, guest, nodeOnline, pool)) {
      cached = readEntry(model, guest, nodeOnline, pool);
      cache.set(guest, cached);
    }
    if (cached.stopped) return cached.stopped;
    if (guest.status !== "running") {
      cached.stopped = flat(cached.head, usageJson(guestUsage(model, guest, now)), cached.tail);
      return cached.stopped;
    }
    if (cached.running === undefined || cached.runningAt !== now || cached.runningStartedAt !== guest.startedAt) {
      cached.running = flat(cached.head, usageJson(guestUsage(model, guest, now)), cached.tail);
      cached.runningAt = now;
      cached.runningStartedAt = guest.startedAt;
    }
    return cached.running;
  };
  return { length: guests.length, text: (start, end) => guests.slice(start, end).map(entry).join(",") };
}
