// QEMU guest agent (ping, network-get-interfaces, os info, exec ...) and LXC interfaces.
// Addresses (guest-addresses.ts) exist only while the guest runs (and, for QEMU, while the
// agent is enabled and has come up after boot).
import { macOf, parseNet } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { num, pathGuest, sim, str } from "./context.js";
import { type GuestAddress, type GuestNic, nicAddresses } from "./guest-addresses.js";
import { agentEnabled } from "./guest-status.js";

function nics(guest: GuestState): GuestNic[] {
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
      statistics: {
        "rx-bytes": 0,
        "rx-packets": 0,
        "rx-errs": 0,
        "rx-dropped": 0,
        "tx-bytes": 0,
        "tx-packets": 0,
        "tx-errs": 0,
        "tx-dropped": 0,
      },
    },
  ];
  const uptime = model.uptime(guest);
  nics(guest).forEach((nic, i) => {
    result.push({
      name: `eth${i}`,
      "hardware-address": nic.mac.toLowerCase(),
      "ip-addresses": nicAddresses(model, guest, nic).map((a) => ({
        "ip-address": a.address,
        "ip-address-type": a.family,
        prefix: a.prefix,
      })),
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

/**
 * One interface as pve-container's get_interfaces reads `ip --json addr`: each address under
 * `ip-addresses` (families `inet`, `inet6`), and the older `inet` / `inet6` holding the last
 * address of each family (kept for clients that read them).
 */
function ctInterface(name: string, mac: string, addresses: GuestAddress[]): Record<string, unknown> {
  const out: Record<string, unknown> = { name, hwaddr: mac, "hardware-address": mac };
  const list: Array<Record<string, string | number>> = [];
  for (const a of addresses) {
    const family = a.family === "ipv4" ? "inet" : "inet6";
    out[family] = `${a.address}/${a.prefix}`;
    list.push({ "ip-address": a.address, "ip-address-type": family, prefix: a.prefix });
  }
  out["ip-addresses"] = list;
  return out;
}

/** GET …/lxc/{vmid}/interfaces (PVE 9's `hardware-address` and `ip-addresses` beside the older keys). */
function lxcInterfaces(ctx: HandlerContext): Array<Record<string, unknown>> {
  const guest = pathGuest(ctx, "lxc");
  const model = sim(ctx);
  if (guest.status !== "running") throw new PveApiError(500, `CT ${guest.vmid} not running`);
  const loopback: GuestAddress[] = [
    { family: "ipv4", address: "127.0.0.1", prefix: 8 },
    { family: "ipv6", address: "::1", prefix: 128 },
  ];
  const out = [ctInterface("lo", "00:00:00:00:00:00", loopback)];
  for (const nic of nics(guest)) {
    const name = typeof nic.props.name === "string" ? nic.props.name : `eth${nic.index}`;
    out.push(ctInterface(name, nic.mac.toLowerCase(), nicAddresses(model, guest, nic)));
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
