// A node's /etc/network/interfaces and interfaces.new (pve-manager PVE/API2/Network.pm, INotify's
// interfaces reader/writer): edits go to the pending copy; applying moves it over the current one,
// whose bridges are then the ones guests may use. Until first edited, the configuration is the
// one the cluster config describes: one port and one bridge per configured bridge name.
import type { NetIface, NodeNetwork, NodeState } from "./types.js";

/** The configuration a node starts with (the listing the simulator always gave). */
export function defaultInterfaces(node: NodeState): Record<string, NetIface> {
  const out: Record<string, NetIface> = {};
  node.bridges.forEach((bridge, i) => {
    out[`eno${i + 1}`] = { type: "eth", method: "manual", method6: "manual", families: ["inet"] };
    const entry: NetIface = {
      type: "bridge",
      method: i === 0 ? "static" : "manual",
      method6: "manual",
      families: ["inet"],
      autostart: 1,
      bridge_ports: `eno${i + 1}`,
      bridge_stp: "off",
      bridge_fd: "0",
    };
    if (i === 0) {
      entry.address = node.ip;
      entry.netmask = "24";
      entry.cidr = `${node.ip}/24`;
      entry.gateway = node.ip.replace(/\.\d+$/, ".1");
    }
    out[bridge] = entry;
  });
  return out;
}

/** The node's network state, created from the defaults on first use. */
export function nodeNetwork(node: NodeState): NodeNetwork {
  node.network ??= { current: defaultInterfaces(node) };
  return node.network;
}

/** What reads see: interfaces.new while edits are pending (INotify reads it first), else the file. */
export function effectiveInterfaces(node: NodeState): Record<string, NetIface> {
  const net = node.network;
  if (!net) return defaultInterfaces(node);
  return net.pending ?? net.current;
}

/** Pending copy to edit: interfaces.new is created from the current file on the first edit. */
export function editableInterfaces(node: NodeState): Record<string, NetIface> {
  const net = nodeNetwork(node);
  net.pending ??= structuredClone(net.current);
  return net.pending;
}

const TYPE_ORDER = ["eth", "bond", "vlan", "OVSPort", "OVSIntPort", "OVSBond", "bridge", "OVSBridge"];

/** Stanza order of the written file: physical ports, bonds, VLANs, then bridges; by name within. */
export function orderedNames(ifaces: Record<string, NetIface>): string[] {
  const rank = (name: string) => {
    const i = TYPE_ORDER.indexOf(String(ifaces[name]?.type));
    return i < 0 ? TYPE_ORDER.length : i;
  };
  return Object.keys(ifaces).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, "en", { numeric: true }));
}

/** Applies the pending file (the srvreload task's rename + ifreload); bridges follow it. */
export function applyPending(node: NodeState): void {
  const net = nodeNetwork(node);
  if (net.pending) net.current = net.pending;
  delete net.pending;
  const bridges = orderedNames(net.current).filter((n) => net.current[n]?.type === "bridge" || net.current[n]?.type === "OVSBridge");
  // Keep configured bridges in their order (the first one carries the node's address).
  node.bridges = [...node.bridges.filter((b) => bridges.includes(b)), ...bridges.filter((b) => !node.bridges.includes(b))];
}
