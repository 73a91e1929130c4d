// Picks `ansible_host` for a guest from the configured sources, in order.
import type { InventoryGuest } from "./model.js";

function isUsable(address: string, family: "inet" | "inet6"): boolean {
  if (family === "inet") return !address.startsWith("127.") && !address.startsWith("169.254.");
  return address !== "::1" && !address.toLowerCase().startsWith("fe80:");
}

function fromAgent(guest: InventoryGuest): string | undefined {
  const usable = (guest.agentAddresses ?? []).filter((a) => isUsable(a.address, a.family));
  return (usable.find((a) => a.family === "inet") ?? usable[0])?.address;
}

/** The first static address of cloud-init `ipconfigN` (QEMU) or `netN` `ip=` (LXC); DHCP gives none. */
function fromIpconfig(guest: InventoryGuest): string | undefined {
  const config = guest.config;
  if (!config) return undefined;
  const prefix = guest.type === "qemu" ? "ipconfig" : "net";
  const keys = Object.keys(config)
    .filter((k) => new RegExp(`^${prefix}\\d+$`).test(k))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  for (const key of keys) {
    for (const part of String(config[key]).split(",")) {
      const [k, v] = part.split("=", 2);
      if ((k === "ip" || k === "ip6") && v && v !== "dhcp" && v !== "auto" && v !== "manual") return v.split("/")[0];
    }
  }
  return undefined;
}

export type AddressSource = "agent" | "ipconfig" | "netbox";

export function pickAnsibleHost(
  guest: InventoryGuest,
  sources: readonly AddressSource[],
  netboxAddress?: () => string | undefined,
): string | undefined {
  for (const source of sources) {
    const address = source === "agent" ? fromAgent(guest) : source === "ipconfig" ? fromIpconfig(guest) : netboxAddress?.();
    if (address) return address;
  }
  return undefined;
}
