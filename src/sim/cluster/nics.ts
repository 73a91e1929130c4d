// Network device strings: QEMU `virtio=BC:24:11:..,bridge=vmbr0` and LXC `name=eth0,...,hwaddr=..`,
// parsed and printed by pve/ (the API pipeline has already checked them against the schema).
import { macOf, type PropertyValues, parseNet as pveParseNet, printNet } from "../../pve/index.js";
import type { GuestType } from "./types.js";

/** A NIC parsed with its numbers as written (PVE keeps `rate=50.0`; the value is printed back). */
function parseNet(text: string, type: GuestType, key: string): PropertyValues {
  return pveParseNet(text, type, key, { numbersAsText: true });
}

/** The key holding a NIC's MAC address. */
function macKey(type: GuestType): "macaddr" | "hwaddr" {
  return type === "qemu" ? "macaddr" : "hwaddr";
}

/**
 * Normalises a netN value as PVE does on every write: a missing MAC is generated; LXC NICs
 * get `type=veth`. MACs are stored upper-case so that the simulator's generated and given
 * MACs compare alike.
 */
export function normaliseNic(type: GuestType, key: string, text: string, newMac: () => string): string {
  const nic = parseNet(text, type, key);
  nic[macKey(type)] = (macOf(nic) ?? newMac()).toUpperCase();
  if (type === "lxc") nic.type = "veth";
  return printNet(nic, type, key);
}

/** The netN value with a new MAC address (clones and unique restores), everything else kept. */
export function withNewMac(type: GuestType, key: string, text: string, mac: string): string {
  const nic = parseNet(text, type, key);
  nic[macKey(type)] = mac;
  return printNet(nic, type, key);
}

/** The MAC of a NIC, upper-case. */
export function nicMac(type: GuestType, key: string, text: string): string | undefined {
  return macOf(parseNet(text, type, key));
}

export function nicBridge(type: GuestType, key: string, text: string): string | undefined {
  const bridge = parseNet(text, type, key).bridge;
  return typeof bridge === "string" ? bridge : undefined;
}
