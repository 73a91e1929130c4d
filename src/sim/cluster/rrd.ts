// The RRD history pvestatd would have written for a node or guest (pve-manager PVE/API2/Nodes.pm
// and PVE/API2/Qemu.pm/LXC.pm `rrddata`, read through PVE::RRD): 70 points per timeframe, each
// the consolidated value (AVERAGE or MAX) of one step. Figures are the ones status/current and
// /cluster/resources report, sampled at each point's time, so the last point matches "now".
// A point before the node booted has no values (RRD's unknowns are left out: only `time`).
import { guestCpus, guestMaxDisk, guestMaxMem, guestUsage, noise } from "./metrics.js";
import type { SimCluster } from "./model.js";
import type { GuestState, NodeState } from "./types.js";

/** Seconds per point of each timeframe (PVE's RRA resolutions: 1 min, 30 min, 3 h, 12 h, 1 week). */
export const RRD_STEPS: Record<string, number> = {
  hour: 60,
  day: 1800,
  week: 10_800,
  month: 43_200,
  year: 604_800,
  decade: 2_592_000,
};
export const RRD_POINTS = 70;

export type RrdPoint = Record<string, number>;

/** The end time of each point, oldest first, aligned to the step as RRD aligns them. */
function pointTimes(now: number, step: number): number[] {
  const last = Math.floor(now / step) * step;
  return Array.from({ length: RRD_POINTS }, (_, i) => last - (RRD_POINTS - 1 - i) * step);
}

/** MAX of a step lies above its AVERAGE by a deterministic burst (never above the ceiling). */
function peak(avg: number, ceiling: number, ...key: Array<string | number>): number {
  return Math.min(ceiling, avg * (1.2 + 0.6 * noise(...key)));
}

export function guestRrd(model: SimCluster, guest: GuestState, timeframe: string, cf: string): RrdPoint[] {
  const step = RRD_STEPS[timeframe] ?? 60;
  const bootTime = model.node(guest.node)?.bootTime ?? 0;
  const maxcpu = guestCpus(model, guest);
  const maxmem = guestMaxMem(guest);
  const maxdisk = guestMaxDisk(guest);
  const salt = model.state.salt;
  return pointTimes(model.now(), step).map((time): RrdPoint => {
    if (time < bootTime) return { time };
    const running = guest.status === "running" && guest.startedAt !== undefined && guest.startedAt <= time - 1;
    const base = { time, maxcpu, maxmem, maxdisk };
    if (!running) return { ...base, cpu: 0, mem: 0, disk: 0, netin: 0, netout: 0, diskread: 0, diskwrite: 0 };
    // Counters become rates: the difference of the cumulative figures over one second.
    const at = guestUsage(model, guest, time);
    const before = guestUsage(model, guest, time - 1);
    const point = {
      ...base,
      cpu: at.cpu,
      mem: at.mem,
      disk: at.disk,
      netin: at.netin - before.netin,
      netout: at.netout - before.netout,
      diskread: at.diskread - before.diskread,
      diskwrite: at.diskwrite - before.diskwrite,
    };
    if (cf !== "MAX") return point;
    return {
      ...point,
      cpu: peak(point.cpu, 1, salt, guest.vmid, "rrdcpu", time),
      mem: Math.round(peak(point.mem, maxmem, salt, guest.vmid, "rrdmem", time)),
    };
  });
}

/** A node's figures at a moment: its own base load plus what its running guests use then. */
function nodeFigures(
  model: SimCluster,
  node: NodeState,
  running: GuestState[],
  time: number,
): { cpu: number; mem: number; netin: number; netout: number } {
  let cpu = 0;
  let mem = 0;
  let net = 0;
  for (const guest of running) {
    if (guest.startedAt === undefined || guest.startedAt > time - 1) continue;
    const at = guestUsage(model, guest, time);
    cpu += at.cpu;
    mem += at.mem;
    net += at.netin - guestUsage(model, guest, time - 1).netin;
  }
  return { cpu: Math.min(1, 0.01 + cpu / node.cpus), mem: 2 * 1024 ** 3 + mem, netin: 1200 + net, netout: 900 + Math.round(net / 8) };
}

export function nodeRrd(model: SimCluster, node: NodeState, timeframe: string, cf: string): RrdPoint[] {
  const step = RRD_STEPS[timeframe] ?? 60;
  const salt = model.state.salt;
  const swaptotal = 8 * 1024 ** 3;
  const rootused = Math.round(node.rootDisk * 0.08);
  // The node's running guests once, not once per point: a node may hold thousands.
  const running = model.state.guests.filter((g) => g.node === node.name && g.status === "running");
  return pointTimes(model.now(), step).map((time): RrdPoint => {
    if (time < node.bootTime || !node.online) return { time };
    const f = nodeFigures(model, node, running, time);
    const max = cf === "MAX";
    const cpu = max ? peak(f.cpu, 1, salt, node.name, "rrdcpu", time) : f.cpu;
    return {
      time,
      cpu,
      maxcpu: node.cpus,
      iowait: cpu * 0.05 * noise(salt, node.name, "iowait", time),
      loadavg: Math.round(cpu * node.cpus * 100) / 100,
      memtotal: node.memory,
      memused: max ? Math.round(peak(f.mem, node.memory, salt, node.name, "rrdmem", time)) : f.mem,
      memavailable: node.memory - f.mem,
      swaptotal,
      swapused: 0,
      roottotal: node.rootDisk,
      rootused,
      netin: f.netin,
      netout: f.netout,
    };
  });
}
