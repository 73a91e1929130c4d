// Usage figures of running guests and nodes: plausible, deterministic (salt + vmid + time).
import { GIB as GiB, parseBoot } from "../../pve/index.js";
import { driveSize, isCdrom, isDiskKey } from "./drives.js";
import type { SimCluster } from "./model.js";
import type { GuestState } from "./types.js";

const MiB = 1024 ** 2;

/** A stable number in [0, 1) for the given parts. */
export function noise(...parts: Array<string | number>): number {
  // FNV-1a over the parts joined by "|", without building the joined string: this runs
  // three times per running guest on every /cluster/resources call.
  let h = 2166136261;
  for (let p = 0; p < parts.length; p++) {
    if (p > 0) h = Math.imul(h ^ 124, 16777619); // "|"
    const text = String(parts[p]);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  }
  return ((h >>> 0) % 1_000_000) / 1_000_000;
}

export function guestMaxMem(guest: GuestState): number {
  const cfg = guest.config;
  const raw = cfg.memory;
  if (typeof raw === "number") return (raw || 512) * MiB;
  if (raw === undefined) return 512 * MiB;
  const mib = Number.parseInt(raw.startsWith("current=") ? raw.slice("current=".length) : raw, 10) || 512;
  return mib * MiB;
}

export function guestCpus(model: SimCluster, guest: GuestState): number {
  const cfg = guest.config;
  const hostCpus = model.node(guest.node)?.cpus ?? 16;
  // pve-container: cores, else cpulimit, else every CPU of the host
  if (guest.type === "lxc") return Number(cfg.cores ?? 0) || Number(cfg.cpulimit ?? 0) || hostCpus;
  if (cfg.vcpus !== undefined) return Number(cfg.vcpus);
  return Math.min(hostCpus, Number(cfg.sockets ?? 1) * Number(cfg.cores ?? 1));
}

// /cluster/resources reports every guest's boot-disk size on every call. Reading a size means
// parsing a drive string against PVE's schema, which at 10,000 guests dominated the call, so
// what a drive string says is remembered per (key, string); boot orders likewise per string.
// Config strings are the same string objects from call to call, so the lookups stay cheap.
interface DriveFacts {
  size: number;
  cdrom: boolean;
}
const driveFacts = new Map<string, Map<string, DriveFacts>>();
const bootOrders = new Map<string, string[]>();
const MAX_MEMO_ENTRIES = 50_000;
let driveFactCount = 0;

function factsOf(type: GuestState["type"], key: string, text: string): DriveFacts {
  let byText = driveFacts.get(key);
  if (!byText) {
    byText = new Map();
    driveFacts.set(key, byText);
  }
  const known = byText.get(text);
  if (known) return known;
  if (driveFactCount >= MAX_MEMO_ENTRIES) {
    for (const memo of driveFacts.values()) memo.clear();
    driveFactCount = 0;
  }
  const facts = { size: driveSize(type, key, text), cdrom: isCdrom(text) };
  byText.set(text, facts);
  driveFactCount++;
  return facts;
}

function bootOrder(boot: string): string[] {
  const known = bootOrders.get(boot);
  if (known) return known;
  if (bootOrders.size >= MAX_MEMO_ENTRIES) bootOrders.clear();
  const order = parseBoot(boot).order;
  bootOrders.set(boot, order);
  return order;
}

/** The boot disk's size (QEMU: first disk in boot order, else first disk by key; LXC: rootfs). */
export function guestMaxDisk(guest: GuestState): number {
  const cfg = guest.config;
  // pve-container's vmstatus: the rootfs `size`, 4 GiB when it has none (or size=0T)
  if (guest.type === "lxc") return (cfg.rootfs === undefined ? 0 : factsOf("lxc", "rootfs", String(cfg.rootfs)).size) || 4 * 1024 ** 3;
  const bootDisk = (key: string): DriveFacts | undefined => {
    const value = cfg[key];
    if (value === undefined || !isDiskKey("qemu", key)) return undefined;
    const facts = factsOf("qemu", key, String(value));
    return facts.cdrom ? undefined : facts;
  };
  if (cfg.boot !== undefined) {
    for (const key of bootOrder(String(cfg.boot))) {
      const facts = bootDisk(key);
      if (facts) return facts.size;
    }
  }
  for (const key of Object.keys(cfg).sort()) {
    const facts = bootDisk(key);
    if (facts) return facts.size;
  }
  return 0;
}

export interface GuestUsage {
  cpu: number;
  mem: number;
  disk: number;
  netin: number;
  netout: number;
  diskread: number;
  diskwrite: number;
  uptime: number;
}

// A running guest's memory share and traffic rate never move (they depend on the salt and
// the vmid only); hashing them again for every guest on every listing was a third of the
// cost of listing running guests.
const steadyShares = new WeakMap<GuestState, { salt: string; mem: number; net: number }>();

function sharesOf(salt: string, guest: GuestState): { mem: number; net: number } {
  const known = steadyShares.get(guest);
  if (known?.salt === salt) return known;
  const shares = { salt, mem: noise(salt, guest.vmid, "mem"), net: noise(salt, guest.vmid, "net") };
  steadyShares.set(guest, shares);
  return shares;
}

function hasNic(guest: GuestState): boolean {
  for (const key in guest.config) if (key.startsWith("net") && /^net\d+$/.test(key)) return true;
  return false;
}

/** `now` can be passed in by callers that go through thousands of guests at one moment. */
export function guestUsage(model: SimCluster, guest: GuestState, now = model.now()): GuestUsage {
  if (guest.status !== "running") {
    return { cpu: 0, mem: 0, disk: 0, netin: 0, netout: 0, diskread: 0, diskwrite: 0, uptime: 0 };
  }
  const uptime = model.uptime(guest, now);
  const salt = model.state.salt;
  const tick = Math.floor(now / 10);
  const maxmem = guestMaxMem(guest);
  const cpu = 0.005 + 0.08 * noise(salt, guest.vmid, "cpu", tick);
  const shares = sharesOf(salt, guest);
  const mem = Math.round(maxmem * (0.2 + 0.4 * shares.mem));
  // traffic is counted on the guest's tap/veth devices: without a netN there is none
  const rate = hasNic(guest) ? 500 + Math.round(4000 * shares.net) : 0;
  const disk = guest.type === "lxc" ? Math.round(guestMaxDisk(guest) * 0.15) : 0;
  return {
    cpu,
    mem,
    disk,
    netin: rate === 0 ? 0 : 40_000 + rate * uptime,
    netout: rate === 0 ? 0 : 2_000 + Math.round((rate * uptime) / 8),
    diskread: 120 * MiB + 4096 * uptime,
    diskwrite: 8192 * uptime,
    uptime,
  };
}

export function guestName(guest: GuestState): string {
  // Read through pending and pending deletions without copying the config (effectiveConfig
  // would copy every key, for every guest /cluster/resources lists).
  const key = guest.type === "qemu" ? "name" : "hostname";
  const name = key in guest.pendingDelete ? undefined : (guest.pending[key] ?? guest.config[key]);
  if (name !== undefined) return String(name);
  return guest.type === "qemu" ? `VM ${guest.vmid}` : `CT${guest.vmid}`;
}

export function nodeUsage(model: SimCluster, node: string): { cpu: number; mem: number; disk: number; uptime: number } {
  const n = model.node(node);
  if (!n?.online) return { cpu: 0, mem: 0, disk: 0, uptime: 0 };
  const now = model.now();
  let guestMem = 0;
  let guestCpu = 0;
  for (const g of model.state.guests) {
    if (g.node !== node || g.status !== "running") continue;
    const figures = guestUsage(model, g, now);
    guestMem += figures.mem;
    guestCpu += figures.cpu;
  }
  return {
    cpu: Math.min(1, 0.01 + guestCpu / n.cpus),
    mem: 2 * GiB + guestMem,
    disk: Math.round(n.rootDisk * 0.08),
    uptime: Math.max(0, now - n.bootTime),
  };
}
