// Usage figures of running guests and nodes: plausible, deterministic (salt + vmid + time).
import { GIB as GiB, parseBoot } from "../../pve/index.js";
import { driveSize, isCdrom, isDiskKey } from "./drives.js";
import { effectiveConfig } from "./guest-config.js";
import type { SimCluster } from "./model.js";
import type { GuestState } from "./types.js";

const MiB = 1024 ** 2;

/** A stable number in [0, 1) for the given parts. */
export function noise(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const ch of parts.join("|")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return ((h >>> 0) % 1_000_000) / 1_000_000;
}

export function guestMaxMem(guest: GuestState): number {
  const cfg = guest.config;
  const raw = cfg.memory;
  const mib = raw === undefined ? 512 : Number.parseInt(String(raw).replace(/^current=/, ""), 10) || 512;
  return mib * MiB;
}

export function guestCpus(model: SimCluster, guest: GuestState): number {
  const cfg = guest.config;
  const hostCpus = model.node(guest.node)?.cpus ?? 16;
  if (guest.type === "lxc") return Number(cfg.cores ?? hostCpus);
  if (cfg.vcpus !== undefined) return Number(cfg.vcpus);
  return Math.min(hostCpus, Number(cfg.sockets ?? 1) * Number(cfg.cores ?? 1));
}

// /cluster/resources reports every guest's boot-disk size on every call, and reading it means
// parsing and checking drive strings against PVE's schema: at 10,000 guests that dominated the
// call. The size depends only on the drive strings, so it is remembered per distinct set of them.
const maxDiskMemo = new Map<string, number>();
const MAX_DISK_MEMO_ENTRIES = 50_000;

/** The boot disk's size (QEMU: first disk in boot order, else first disk; LXC: rootfs). */
export function guestMaxDisk(guest: GuestState): number {
  const cfg = guest.config;
  const signature = `${guest.type}\n${Object.keys(cfg)
    .filter((k) => k === "boot" || k === "rootfs" || isDiskKey(guest.type, k))
    .map((k) => `${k}=${cfg[k]}`)
    .join("\n")}`;
  const known = maxDiskMemo.get(signature);
  if (known !== undefined) return known;
  if (maxDiskMemo.size >= MAX_DISK_MEMO_ENTRIES) maxDiskMemo.clear();
  const size = bootDiskSize(guest);
  maxDiskMemo.set(signature, size);
  return size;
}

function bootDiskSize(guest: GuestState): number {
  const cfg = guest.config;
  if (guest.type === "lxc") return cfg.rootfs ? driveSize("lxc", "rootfs", String(cfg.rootfs)) : 0;
  const order = cfg.boot === undefined ? [] : parseBoot(String(cfg.boot)).order;
  const candidates = [...order, ...Object.keys(cfg).sort()].filter(
    (k) => isDiskKey("qemu", k) && cfg[k] !== undefined && !isCdrom(String(cfg[k])),
  );
  const first = candidates[0];
  return first ? driveSize("qemu", first, String(cfg[first])) : 0;
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

export function guestUsage(model: SimCluster, guest: GuestState): GuestUsage {
  const uptime = model.uptime(guest);
  if (guest.status !== "running") {
    return { cpu: 0, mem: 0, disk: 0, netin: 0, netout: 0, diskread: 0, diskwrite: 0, uptime: 0 };
  }
  const salt = model.state.salt;
  const tick = Math.floor(model.now() / 10);
  const maxmem = guestMaxMem(guest);
  const cpu = 0.005 + 0.08 * noise(salt, guest.vmid, "cpu", tick);
  const mem = Math.round(maxmem * (0.2 + 0.4 * noise(salt, guest.vmid, "mem")));
  const rate = 500 + Math.round(4000 * noise(salt, guest.vmid, "net"));
  const disk = guest.type === "lxc" ? Math.round(guestMaxDisk(guest) * 0.15) : 0;
  return {
    cpu,
    mem,
    disk,
    netin: 40_000 + rate * uptime,
    netout: 2_000 + Math.round((rate * uptime) / 8),
    diskread: 120 * MiB + 4096 * uptime,
    diskwrite: 8192 * uptime,
    uptime,
  };
}

export function guestName(guest: GuestState): string {
  const cfg = effectiveConfig(guest);
  const name = guest.type === "qemu" ? cfg.name : cfg.hostname;
  if (name !== undefined) return String(name);
  return guest.type === "qemu" ? `VM ${guest.vmid}` : `CT${guest.vmid}`;
}

export function nodeUsage(model: SimCluster, node: string): { cpu: number; mem: number; disk: number; uptime: number } {
  const n = model.node(node);
  if (!n?.online) return { cpu: 0, mem: 0, disk: 0, uptime: 0 };
  const running = model.state.guests.filter((g) => g.node === node && g.status === "running");
  const guestMem = running.reduce((sum, g) => sum + guestUsage(model, g).mem, 0);
  const cpu = Math.min(1, 0.01 + running.reduce((s, g) => s + guestUsage(model, g).cpu, 0) / n.cpus);
  return {
    cpu,
    mem: 2 * GiB + guestMem,
    disk: Math.round(n.rootDisk * 0.08),
    uptime: Math.max(0, model.now() - n.bootTime),
  };
}
