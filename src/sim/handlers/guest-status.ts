// GET /nodes/{node}/{qemu|lxc} (lists) and …/{vmid}/status/current.
import { effectiveConfig } from "../cluster/guest-config.js";
import { guestCpus, guestMaxDisk, guestMaxMem, guestName, guestUsage } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, GuestType } from "../cluster/types.js";
import type { HandlerContext, Router } from "../contract.js";
import { flag, nodeParam, pathGuest, sim } from "./context.js";
import { haManaged, haStatusState } from "./ha.js";
import { QEMU_VERSION } from "./qemu-create.js";
import { addFullStatus, memHost, pressures } from "./qemu-status-full.js";

const MiB = 1024 ** 2;

type Entry = Record<string, unknown>;

export function guestPid(guest: GuestState): number {
  return 10_000 + ((guest.vmid * 7919) % 3_000_000);
}

export function agentEnabled(guest: GuestState): boolean {
  const agent = String(guest.config.agent ?? "0");
  return /^(1|enabled=1)/.test(agent);
}

/** The fields of a guest shared by the node list, status/current and cluster/resources. */
export function guestSummary(model: SimCluster, guest: GuestState): Entry {
  const usage = guestUsage(model, guest);
  const cfg = guest.config;
  const entry: Entry = {
    vmid: guest.vmid,
    name: guestName(guest),
    status: guest.status,
    cpus: guestCpus(model, guest),
    maxmem: guestMaxMem(guest),
    maxdisk: guestMaxDisk(guest),
    disk: usage.disk,
    cpu: usage.cpu,
    mem: usage.mem,
    uptime: usage.uptime,
    netin: usage.netin,
    netout: usage.netout,
    diskread: usage.diskread,
    diskwrite: usage.diskwrite,
  };
  if (guest.status === "running") entry.pid = guestPid(guest);
  if (cfg.lock !== undefined) entry.lock = String(cfg.lock);
  if (cfg.tags !== undefined) entry.tags = String(cfg.tags);
  if (cfg.template === 1) entry.template = 1;
  if (guest.type === "lxc") {
    entry.type = "lxc";
    // pve-container's vmstatus: `swap // 0`, and PVE 9's cgroup pressure figures while running
    entry.maxswap = Number(cfg.swap ?? 0) * MiB;
    entry.swap = 0;
    if (guest.status === "running") Object.assign(entry, containerPressures(pressures(model, guest, usage)));
  } else {
    entry.serial = Object.keys(cfg).some((k) => /^serial\d+$/.test(k)) ? 1 : 0;
    if (entry.serial === 0) delete entry.serial;
    entry.memhost = memHost(guest, usage);
    if (guest.status === "running") Object.assign(entry, pressures(model, guest, usage));
  }
  return entry;
}

/** vmstatus `full`: the QMP status fields and what QEMU reports of drives, taps and balloon. */
function fullFields(model: SimCluster, guest: GuestState, entry: Entry): void {
  qmpFields(guest, entry);
  addFullStatus(model, guest, guestUsage(model, guest), entry);
}

function qmpFields(guest: GuestState, entry: Entry): void {
  entry.qmpstatus = guest.status === "running" ? guest.qmpstatus : "stopped";
  if (guest.status === "running") {
    entry["running-qemu"] = QEMU_VERSION;
    entry["running-machine"] = "pc-i440fx-10.1+pve0";
  }
}

function list(type: GuestType) {
  return (ctx: HandlerContext): Entry[] => {
    const model = sim(ctx);
    const node = nodeParam(ctx);
    model.requireNode(node);
    return model.state.guests
      .filter((g) => g.type === type && g.node === node)
      .filter((g) => ctx.hasPermission(`/vms/${g.vmid}`, ["VM.Audit"]))
      .sort((a, b) => a.vmid - b.vmid)
      .map((g) => {
        const entry = guestSummary(model, g);
        if (type === "qemu" && flag(ctx, "full")) fullFields(model, g, entry);
        return entry;
      });
  };
}

function current(type: GuestType) {
  return (ctx: HandlerContext): Entry => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const entry = guestSummary(model, guest);
    entry.ha = haManaged(guest) ? { managed: 1, state: haStatusState(guest) } : { managed: 0 };
    if (type === "qemu") {
      fullFields(model, guest, entry);
      if (agentEnabled(guest)) entry.agent = 1;
      const vga = String(effectiveConfig(guest).vga ?? "");
      if (/qxl/.test(vga)) entry.spice = 1;
      if (/clipboard=vnc/.test(vga)) entry.clipboard = "vnc";
      if (guest.config.balloon !== undefined && Number(guest.config.balloon) > 0) {
        entry.balloon_min = Number(guest.config.balloon) * MiB;
        entry.shares = Number(guest.config.shares ?? 1000);
      }
    }
    return entry;
  };
}

/** A container reports no `pressurecpufull` (PVE 9's LXC vmstatus leaves it out). */
function containerPressures(all: Entry): Entry {
  const { pressurecpufull: _full, ...rest } = all;
  return rest;
}

export function registerGuestStatus(router: Router): void {
  router.add("GET", "/nodes/{node}/qemu", list("qemu"));
  router.add("GET", "/nodes/{node}/lxc", list("lxc"));
  router.add("GET", "/nodes/{node}/qemu/{vmid}/status/current", current("qemu"));
  router.add("GET", "/nodes/{node}/lxc/{vmid}/status/current", current("lxc"));
}
