// Cloud-init: GET/PUT …/qemu/{vmid}/cloudinit (pending cloud-init changes, regenerate) and
// GET …/cloudinit/dump (the user, network and meta data the drive would hold).
import { createHash } from "node:crypto";
import { isCloudinitDrive, parseIpconfig } from "../../pve/index.js";
import { isDiskKey } from "../cluster/drives.js";
import { effectiveConfig } from "../cluster/guest-config.js";
import { guestName } from "../cluster/metrics.js";
import { nicMac } from "../cluster/nics.js";
import type { GuestConfig, GuestState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { pathGuest, str } from "./context.js";

const CI_KEYS = /^(ciuser|cipassword|citype|cicustom|ciupgrade|sshkeys|nameserver|searchdomain|ipconfig\d+|name|net\d+)$/;

export function hasCloudinitDrive(guest: GuestState): boolean {
  return Object.entries(guest.config).some(([k, v]) => isDiskKey("qemu", k) && isCloudinitDrive(String(v)));
}

/** The cloud-init values a freshly generated drive holds. */
export function cloudinitValues(config: GuestConfig): GuestConfig {
  const out: GuestConfig = {};
  for (const [k, v] of Object.entries(config)) if (CI_KEYS.test(k)) out[k] = v;
  return out;
}

/** Regenerates the drive's content (at start and on PUT …/cloudinit). */
export function regenerateCloudinit(guest: GuestState): void {
  if (hasCloudinitDrive(guest)) guest.cloudinit = cloudinitValues(guest.config);
}

/**
 * The VM boots (start, reboot, reset) and its cloud-init applies what the drive holds now; a
 * drive regenerated later reaches the guest at its next boot.
 */
export function readCloudinitAtBoot(guest: GuestState): void {
  if (hasCloudinitDrive(guest) && guest.cloudinit) guest.cloudinitBooted = { ...guest.cloudinit };
  else delete guest.cloudinitBooted;
}

function pending(ctx: HandlerContext): Array<Record<string, string | number>> {
  const guest = pathGuest(ctx, "qemu");
  const current = cloudinitValues(effectiveConfig(guest));
  const baked = guest.cloudinit ?? {};
  const keys = [...new Set([...Object.keys(current), ...Object.keys(baked)])].sort();
  return keys.map((key) => {
    const entry: Record<string, string | number> = { key };
    const before = baked[key];
    const now = current[key];
    if (before !== undefined) entry.value = key === "cipassword" ? "**********" : before;
    if (now === undefined) entry.delete = 1;
    else if (String(now) !== String(before)) entry.pending = key === "cipassword" ? "**********" : now;
    return entry;
  });
}

function update(ctx: HandlerContext): null {
  const guest = pathGuest(ctx, "qemu");
  if (!hasCloudinitDrive(guest)) throw new PveApiError(500, "no cloudinit drive found");
  regenerateCloudinit(guest);
  return null;
}

function netmask(prefix: number): string {
  const bits = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((s) => (bits >>> s) & 255).join(".");
}

function userData(guest: GuestState, config: GuestConfig): string {
  const name = guestName(guest);
  let out = `#cloud-config\nhostname: ${name}\nmanage_etc_hosts: true\nfqdn: ${name}\n`;
  if (config.ciuser !== undefined) out += `user: ${config.ciuser}\n`;
  if (config.cipassword !== undefined) {
    const hash = createHash("sha256").update(String(config.cipassword)).digest("base64").slice(0, 43);
    out += `password: $5$simulated$${hash}\n`;
  }
  if (config.sshkeys !== undefined) {
    out += "ssh_authorized_keys:\n";
    for (const key of decodeURIComponent(String(config.sshkeys))
      .split("\n")
      .filter((k) => k.trim() !== ""))
      out += `  - ${key}\n`;
  }
  out += "chpasswd:\n  expire: False\nusers:\n  - default\n";
  if (config.ciupgrade !== 0) out += "package_upgrade: true\n";
  return out;
}

function networkData(config: GuestConfig): string {
  let out = "version: 1\nconfig:\n";
  // As qemu-server's nocloud_network: the keys sorted as strings, a NIC without ipconfigN left out.
  const nets = Object.keys(config)
    .filter((k) => /^net\d+$/.test(k))
    .sort();
  for (const key of nets) {
    const n = Number(key.slice(3));
    const ipconfig = config[`ipconfig${n}`];
    if (ipconfig === undefined || ipconfig === "") continue;
    out += `    - type: physical\n      name: eth${n}\n      mac_address: '${(nicMac("qemu", key, String(config[key])) ?? "").toLowerCase()}'\n      subnets:\n`;
    const parsed = parseIpconfig(String(ipconfig), `ipconfig${n}`);
    const ip: Record<string, string> = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    const ip4 = ip.ip;
    if (ip4 === "dhcp") out += "      - type: dhcp4\n";
    else if (ip4) {
      const [address, prefix] = ip4.split("/");
      out += `      - type: static\n        address: '${address}'\n        netmask: '${netmask(Number(prefix ?? 24))}'\n`;
      if (ip.gw) out += `        gateway: '${ip.gw}'\n`;
    }
    const ip6 = ip.ip6;
    if (ip6 === "dhcp") out += "      - type: dhcp6\n";
    else if (ip6 === "auto") out += "      - type: ipv6_slaac\n";
    else if (ip6) out += `      - type: static6\n        address: '${ip6}'\n${ip.gw6 ? `        gateway: '${ip.gw6}'\n` : ""}`;
  }
  if (config.nameserver !== undefined || config.searchdomain !== undefined) {
    out += "    - type: nameserver\n      address:\n";
    for (const ns of String(config.nameserver ?? "")
      .split(/\s+/)
      .filter((x) => x))
      out += `      - '${ns}'\n`;
    out += "      search:\n";
    for (const d of String(config.searchdomain ?? "")
      .split(/\s+/)
      .filter((x) => x))
      out += `      - '${d}'\n`;
  }
  return out;
}

function dump(ctx: HandlerContext): string {
  const guest = pathGuest(ctx, "qemu");
  const config = effectiveConfig(guest);
  const type = str(ctx, "type");
  if (type === "user") return userData(guest, config);
  if (type === "network") return networkData(config);
  const id = createHash("sha1")
    .update(userData(guest, config) + networkData(config))
    .digest("hex");
  return `instance-id: ${id}\n`;
}

export function registerCloudinitHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/qemu/{vmid}/cloudinit", pending);
  router.add("PUT", "/nodes/{node}/qemu/{vmid}/cloudinit", update);
  router.add("GET", "/nodes/{node}/qemu/{vmid}/cloudinit/dump", dump);
}
