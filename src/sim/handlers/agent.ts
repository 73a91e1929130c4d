// QEMU guest agent (ping, network-get-interfaces, os info, exec ...) and LXC interfaces.
// Addresses are deterministic per cluster seed, guest and NIC, and exist only while the
// guest runs (and, for QEMU, while the agent is enabled and has come up after boot).
import { macOf, type PropertyValues, parseNet } from "../../pve/index.js";
import { noise } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { num, pathGuest, sim, str } from "./context.js";
import { agentEnabled } from "./guest-status.js";

/** The IPv4 address the simulated guest uses on NIC `index`. */
export function guestIpv4(model: SimCluster, vmid: number, index: number): string {
  const second = 16 + Math.floor(noise(model.state.salt, "net") * 200) + index;
  return `10.${second % 256}.${Math.floor(vmid / 250) % 256}.${(vmid % 250) + 2}`;
}

function linkLocal(mac: string): string {
  const b = mac.toLowerCase().split(":").map((x) => Number.parseInt(x, 16));
  const h = (x: number | undefined) => (x ?? 0).toString(16).padStart(2, "0");
  const first = (b[0] ?? 0) ^ 0x02;
  return `fe80::${h(first)}${h(b[1])}:${h(b[2])}ff:fe${h(b[3])}:${h(b[4])}${h(b[5])}`.replace(/:0+([0-9a-f])/g, ":$1");
}

function nics(guest: GuestState): Array<{ index: number; mac: string; props: PropertyValues }> {
  const cfg = guest.config;
  return Object.keys(cfg)
    .filter((k) => /^net\d+$/.test(k))
    .sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))
    .map((k) => {
      const props = parseNet(String(cfg[k]), guest.type, k);
      return { index: Number(k.slice(3)), mac: macOf(props) ?? "00:00:00:00:00:00", props };
    });
}

/** Preconditions of every agent call (PVE's messages). */
function agentGuest(ctx: HandlerContext): { model: SimCluster; guest: GuestState } {
  const guest = pathGuest(ctx, "qemu");
  const model = sim(ctx);
  if (!agentEnabled(guest)) {
    throw new PveApiError(500, "No QEMU guest agent configured");
  }
  if (guest.status !== "running") throw new PveApiError(500, `VM ${guest.vmid} is not running`);
  if (model.uptime(guest) < guest.agentDelay || guest.qmpstatus !== "running") {
    throw new PveApiError(500, "QEMU guest agent is not running");
  }
  return { model, guest };
}

function networkInterfaces(ctx: HandlerContext): { result: unknown[] } {
  const { model, guest } = agentGuest(ctx);
  const result: unknown[] = [
    {
      name: "lo",
      "hardware-address": "00:00:00:00:00:00",
      "ip-addresses": [
        { "ip-address": "127.0.0.1", "ip-address-type": "ipv4", prefix: 8 },
        { "ip-address": "::1", "ip-address-type": "ipv6", prefix: 128 },
      ],
      statistics: { "rx-bytes": 0, "rx-packets": 0, "rx-errs": 0, "rx-dropped": 0, "tx-bytes": 0, "tx-packets": 0, "tx-errs": 0, "tx-dropped": 0 },
    },
  ];
  const uptime = model.uptime(guest);
  nics(guest).forEach((nic, i) => {
    result.push({
      name: `eth${i}`,
      "hardware-address": nic.mac.toLowerCase(),
      "ip-addresses": [
        { "ip-address": guestIpv4(model, guest.vmid, nic.index), "ip-address-type": "ipv4", prefix: 24 },
        { "ip-address": linkLocal(nic.mac), "ip-address-type": "ipv6", prefix: 64 },
      ],
      statistics: {
        "rx-bytes": 2048 * uptime,
        "rx-packets": 8 * uptime,
        "rx-errs": 0,
        "rx-dropped": 0,
        "tx-bytes": 512 * uptime,
        "tx-packets": 4 * uptime,
        "tx-errs": 0,
        "tx-dropped": 0,
      },
    });
  });
  return { result };
}

function osInfo(ctx: HandlerContext): { result: unknown } {
  agentGuest(ctx);
  return {
    result: {
      id: "debian",
      name: "Debian GNU/Linux",
      "pretty-name": "Debian GNU/Linux 13 (trixie)",
      version: "13 (trixie)",
      "version-id": "13",
      "kernel-release": "6.12.48+deb13-amd64",
      "kernel-version": "#1 SMP PREEMPT_DYNAMIC Debian 6.12.48-1",
      machine: "x86_64",
    },
  };
}

function hostName(ctx: HandlerContext): { result: unknown } {
  const { guest } = agentGuest(ctx);
  const name = String(guest.config.name ?? `vm${guest.vmid}`).split(".")[0];
  return { result: { "host-name": name } };
}

function empty(ctx: HandlerContext): { result: Record<string, never> } {
  agentGuest(ctx);
  return { result: {} };
}

function agentCommand(ctx: HandlerContext): { result: unknown } {
  const command = str(ctx, "command") ?? "";
  if (command === "network-get-interfaces") return networkInterfaces(ctx);
  if (command === "get-osinfo") return osInfo(ctx);
  if (command === "get-host-name") return hostName(ctx);
  const { model, guest } = agentGuest(ctx);
  if (command === "shutdown") model.markStopped(guest);
  if (command === "fsfreeze-status") return { result: "thawed" };
  if (command === "fsfreeze-freeze" || command === "fsfreeze-thaw") return { result: 1 };
  return { result: {} };
}

function agentShutdown(ctx: HandlerContext): { result: Record<string, never> } {
  const { model, guest } = agentGuest(ctx);
  model.markStopped(guest);
  return { result: {} };
}

function exec(ctx: HandlerContext): { pid: number } {
  agentGuest(ctx);
  return { pid: 1000 + Math.floor(ctx.random.next() * 30000) };
}

function execStatus(ctx: HandlerContext): Record<string, number | string> {
  agentGuest(ctx);
  if (num(ctx, "pid") === undefined) throw new PveApiError(500, "Agent error: Invalid parameter 'pid'");
  return { exited: 1, exitcode: 0, "out-data": "" };
}

/** One address as PVE 9 lists it under `ip-addresses` (the families of `ip -j addr`). */
function ctAddress(cidr: string, family: "inet" | "inet6"): Record<string, string | number> {
  const [address, prefix] = cidr.split("/");
  return { "ip-address": address ?? "", "ip-address-type": family, prefix: Number(prefix) };
}

/**
 * GET …/lxc/{vmid}/interfaces: PVE 9 gives each interface `hardware-address` and `ip-addresses`
 * beside the older `hwaddr`, `inet` and `inet6` (kept for clients that read them).
 */
function lxcInterfaces(ctx: HandlerContext): Array<Record<string, unknown>> {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (guest.status !== "running") throw new PveApiError(500, `CT ${guest.vmid} not running`);
  const entry = (name: string, mac: string, inet: string | undefined, inet6: string): Record<string, unknown> => {
    const out: Record<string, unknown> = { name, hwaddr: mac, "hardware-address": mac };
    if (inet !== undefined) out.inet = inet;
    out.inet6 = inet6;
    out["ip-addresses"] = [...(inet !== undefined ? [ctAddress(inet, "inet")] : []), ctAddress(inet6, "inet6")];
    return out;
  };
  const out = [entry("lo", "00:00:00:00:00:00", "127.0.0.1/8", "::1/128")];
  for (const nic of nics(guest)) {
    const ip = typeof nic.props.ip === "string" ? nic.props.ip : undefined;
    const name = typeof nic.props.name === "string" ? nic.props.name : `eth${nic.index}`;
    const inet = ip && ip !== "manual" ? (ip === "dhcp" ? `${guestIpv4(model, guest.vmid, nic.index)}/24` : ip) : undefined;
    out.push(entry(name, nic.mac.toLowerCase(), inet, `${linkLocal(nic.mac)}/64`));
  }
  return out;
}

export function registerAgentHandlers(router: Router): void {
  const base = "/nodes/{node}/qemu/{vmid}/agent";
  router.add("POST", base, agentCommand);
  router.add("POST", `${base}/ping`, empty);
  router.add("GET", `${base}/network-get-interfaces`, networkInterfaces);
  router.add("GET", `${base}/get-osinfo`, osInfo);
  router.add("GET", `${base}/get-host-name`, hostName);
  router.add("POST", `${base}/fstrim`, empty);
  router.add("POST", `${base}/shutdown`, agentShutdown);
  router.add("POST", `${base}/exec`, exec);
  router.add("GET", `${base}/exec-status`, execStatus);
  router.add("GET", "/nodes/{node}/lxc/{vmid}/interfaces", lxcInterfaces);
}
