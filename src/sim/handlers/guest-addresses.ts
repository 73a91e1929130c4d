// The addresses a running simulated guest holds on each NIC, as its agent (QEMU) or `ip addr`
// (LXC) lists them: a static address the guest was configured with (QEMU: cloud-init `ipconfigN`
// as the drive held it at boot; LXC: `ip=` / `ip6=` on netN), else, where the guest asks DHCP, a
// lease made up per cluster seed, guest and NIC; and always the MAC's IPv6 link-local address.
import { type PropertyValues, parseIpconfig } from "../../pve/index.js";
import { noise } from "../cluster/metrics.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";
import { hasCloudinitDrive } from "./cloudinit.js";

export interface GuestNic {
  /** N of netN. */
  index: number;
  mac: string;
  props: PropertyValues;
}

export interface GuestAddress {
  family: "ipv4" | "ipv6";
  address: string;
  prefix: number;
}

/** The IPv4 address the simulated guest leases by DHCP on NIC `index`. */
export function guestIpv4(model: SimCluster, vmid: number, index: number): string {
  const second = 16 + Math.floor(noise(model.state.salt, "net") * 200) + index;
  return `10.${second % 256}.${Math.floor(vmid / 250) % 256}.${(vmid % 250) + 2}`;
}

function linkLocal(mac: string): string {
  const b = mac
    .toLowerCase()
    .split(":")
    .map((x) => Number.parseInt(x, 16));
  const h = (x: number | undefined) => (x ?? 0).toString(16).padStart(2, "0");
  const first = (b[0] ?? 0) ^ 0x02;
  return `fe80::${h(first)}${h(b[1])}:${h(b[2])}ff:fe${h(b[3])}:${h(b[4])}${h(b[5])}`.replace(/:0+([0-9a-f])/g, ":$1");
}

/** `addr/len` of a static setting; undefined for dhcp, auto, manual or nothing. */
function staticAddress(value: unknown, family: GuestAddress["family"]): GuestAddress | undefined {
  if (typeof value !== "string" || !value.includes("/")) return undefined;
  const [address = "", prefix = ""] = value.split("/");
  return { family, address, prefix: Number(prefix) };
}

/**
 * The cloud-init values the running VM applied: what its drive held at its last boot (a VM
 * started before the simulator recorded that reads the drive as it is).
 */
function bootedCloudinit(guest: GuestState): GuestConfig | undefined {
  return guest.cloudinitBooted ?? (hasCloudinitDrive(guest) ? guest.cloudinit : undefined);
}

/**
 * The `ip` / `ip6` settings the guest applies on a NIC. A VM without cloud-init values for the
 * NIC asks DHCP; with `ipconfigN`, PVE's parse_ipconfig makes a value naming neither `ip` nor
 * `ip6` DHCP for both, and the network config it writes holds only the families it names.
 */
function ipSettings(guest: GuestState, nic: GuestNic): PropertyValues {
  if (guest.type === "lxc") return nic.props;
  const ipconfig = bootedCloudinit(guest)?.[`ipconfig${nic.index}`];
  if (ipconfig === undefined) return { ip: "dhcp" };
  const parsed = parseIpconfig(String(ipconfig), `ipconfig${nic.index}`);
  return parsed.ip === undefined && parsed.ip6 === undefined ? { ip: "dhcp", ip6: "dhcp" } : parsed;
}

/** The NIC's addresses in the order Linux lists them: IPv4, global IPv6, link-local IPv6. */
export function nicAddresses(model: SimCluster, guest: GuestState, nic: GuestNic): GuestAddress[] {
  const settings = ipSettings(guest, nic);
  const out: GuestAddress[] = [];
  const ipv4 =
    settings.ip === "dhcp"
      ? { family: "ipv4" as const, address: guestIpv4(model, guest.vmid, nic.index), prefix: 24 }
      : staticAddress(settings.ip, "ipv4");
  if (ipv4) out.push(ipv4);
  const ipv6 = staticAddress(settings.ip6, "ipv6");
  if (ipv6) out.push(ipv6);
  out.push({ family: "ipv6", address: linkLocal(nic.mac), prefix: 64 });
  return out;
}
