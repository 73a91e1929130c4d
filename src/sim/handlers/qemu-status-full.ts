// What a running VM's status adds when PVE asks QEMU itself (qemu-server vmstatus with `full`,
// as status/current and `GET …/qemu?full=1` do): per-drive block statistics, per-tap traffic,
// the balloon's view of memory. And what every qemu status carries from the host: `memhost`
// (0 when stopped) and, while running, the guest cgroup's pressure stall averages.
//
// The figures are split from the guest's usage figures (metrics.ts), so they add up the way
// PVE's do: diskread/diskwrite are the sums of the drives' rd_bytes/wr_bytes, netin/netout the
// sums of the taps', and mem = ballooninfo.total_mem - ballooninfo.free_mem.
import { driveSize, isCdrom, isDiskKey } from "../cluster/drives.js";
import { type GuestUsage, guestMaxMem, noise } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";

const MiB = 1024 ** 2;

type Entry = Record<string, unknown>;

/** Shares of `total` for `n` parts, the first part largest; whole numbers that add up to `total`. */
function split(total: number, n: number): number[] {
  if (n === 0) return [];
  const weights = Array.from({ length: n }, (_, i) => (i === 0 ? 8 : 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  parts[0] = (parts[0] as number) + total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/** Drives QEMU has a block backend for (tpmstate0 is swtpm's, not QEMU's), in config order. */
function blockDrives(guest: GuestState): string[] {
  return Object.keys(guest.config).filter((k) => k !== "tpmstate0" && isDiskKey("qemu", k));
}

/** One drive as query-blockstats reports it (the keys a PVE 9 QEMU answers with). */
function driveStats(read: number, written: number, size: number, uptime: number): Entry {
  const rdOps = Math.round(read / 49_152);
  const wrOps = Math.round(written / 65_536);
  return {
    rd_bytes: read,
    wr_bytes: written,
    rd_operations: rdOps,
    wr_operations: wrOps,
    flush_operations: Math.round(wrOps / 6),
    rd_merged: 0,
    wr_merged: 0,
    rd_total_time_ns: rdOps * 380_000,
    wr_total_time_ns: wrOps * 1_700_000,
    flush_total_time_ns: Math.round(wrOps / 6) * 150_000,
    unmap_bytes: 0,
    unmap_operations: 0,
    unmap_merged: 0,
    unmap_total_time_ns: 0,
    wr_highest_offset: written > 0 ? Math.min(size, written) : 0,
    idle_time_ns: (uptime % 40) * 1_000_000_000 + 125_000_000,
    failed_rd_operations: 0,
    failed_wr_operations: 0,
    failed_flush_operations: 0,
    failed_unmap_operations: 0,
    invalid_rd_operations: 0,
    invalid_wr_operations: 0,
    invalid_flush_operations: 0,
    invalid_unmap_operations: 0,
    account_invalid: true,
    account_failed: true,
    timed_stats: [],
  };
}

function blockstat(guest: GuestState, usage: GuestUsage): Record<string, Entry> {
  const drives = blockDrives(guest);
  // a CD-ROM is read (the installer, cloud-init) and never written
  const disks = drives.filter((k) => !isCdrom(String(guest.config[k])));
  const reads = split(usage.diskread, drives.length);
  const writes = split(usage.diskwrite, disks.length);
  const out: Record<string, Entry> = {};
  drives.forEach((key, i) => {
    const w = disks.indexOf(key);
    out[key] = driveStats(
      reads[i] as number,
      w < 0 ? 0 : (writes[w] as number),
      driveSize("qemu", key, String(guest.config[key])),
      usage.uptime,
    );
  });
  return out;
}

/** Traffic per tap device (`tap<vmid>i<N>` for netN): PVE's netin is the tap's transmit side. */
function nics(guest: GuestState, usage: GuestUsage): Record<string, { netin: number; netout: number }> {
  const keys = Object.keys(guest.config)
    .filter((k) => /^net\d+$/.test(k))
    .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
  const ins = split(usage.netin, keys.length);
  const outs = split(usage.netout, keys.length);
  const out: Record<string, { netin: number; netout: number }> = {};
  keys.forEach((key, i) => {
    out[`tap${guest.vmid}i${key.slice(3)}`] = { netin: ins[i] as number, netout: outs[i] as number };
  });
  return out;
}

/**
 * query-balloon: present unless the config turns the balloon device off (balloon: 0). The host
 * is not short of memory, so the balloon sits at the configured memory; the guest's own
 * figures (total/free) put its used memory at the usage figure.
 */
function ballooninfo(model: SimCluster, guest: GuestState, usage: GuestUsage): Entry | undefined {
  if (guest.config.balloon !== undefined && Number(guest.config.balloon) === 0) return undefined;
  const actual = guestMaxMem(guest);
  const total = actual - Math.round(actual * 0.032); // what the guest kernel keeps for itself
  const salt = model.state.salt;
  return {
    actual,
    max_mem: actual,
    total_mem: total,
    free_mem: total - usage.mem,
    mem_swapped_in: 0,
    mem_swapped_out: 0,
    major_page_faults: 400 + Math.round(2000 * noise(salt, guest.vmid, "majflt")),
    minor_page_faults: 900_000 + usage.uptime * 40,
    last_update: model.now() - (model.now() % 2),
  };
}

/** Host-side memory of the QEMU process: what the guest touched plus QEMU's own. */
export function memHost(guest: GuestState, usage: GuestUsage): number {
  if (guest.status !== "running") return 0;
  return usage.mem + Math.round((guestMaxMem(guest) - usage.mem) * 0.15) + 48 * MiB;
}

/** cgroup pressure stall averages (avg10, percent) of a running guest. */
export function pressures(model: SimCluster, guest: GuestState, usage: GuestUsage): Entry {
  const tick = Math.floor(model.now() / 10);
  const salt = model.state.salt;
  const pct = (x: number) => Math.round(x * 100) / 100;
  const cpuSome = pct(usage.cpu * 20 * noise(salt, guest.vmid, "psi-cpu", tick));
  const ioSome = pct(1.5 * noise(salt, guest.vmid, "psi-io", tick));
  return {
    pressurecpusome: cpuSome,
    pressurecpufull: pct(cpuSome / 4),
    pressureiosome: ioSome,
    pressureiofull: pct(ioSome / 2),
    pressurememorysome: 0,
    pressurememoryfull: 0,
  };
}

/** Adds what vmstatus `full` asks QEMU for to a running VM's entry; nothing for a stopped one. */
export function addFullStatus(model: SimCluster, guest: GuestState, usage: GuestUsage, entry: Entry): void {
  if (guest.status !== "running") return;
  const taps = nics(guest, usage);
  if (Object.keys(taps).length > 0) entry.nics = taps;
  // query-blockstats answers an empty list for a VM without drives, and PVE then sets nothing
  if (blockDrives(guest).length > 0) entry.blockstat = blockstat(guest, usage);
  const balloon = ballooninfo(model, guest, usage);
  if (!balloon) return;
  entry.balloon = balloon.actual;
  entry.freemem = balloon.free_mem;
  entry.ballooninfo = balloon;
}
