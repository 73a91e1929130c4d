// /nodes/{node}/network: list (with `changes` while interfaces.new differs), read, create,
// update and delete interfaces, apply (PUT: srvreload task) and revert (DELETE) pending edits.
// pve-manager PVE/API2/Network.pm; the file model is cluster/node-network.ts.
import { renderInterfaces, unifiedDiff } from "../cluster/interfaces-file.js";
import { applyPending, editableInterfaces, effectiveInterfaces, orderedNames } from "../cluster/node-network.js";
import type { NetIface, NodeState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, PveResult, type Router } from "../contract.js";
import { nodeParam, sim, str } from "./context.js";

/** Request keys that are not stanza options. */
const CONTROL = new Set(["node", "iface", "delete", "digest"]);

function paramError(key: string, message: string): PveApiError {
  return new PveApiError(400, "Parameter verification failed.", { [key]: message });
}

function pathNode(ctx: HandlerContext): NodeState {
  return sim(ctx).requireNode(nodeParam(ctx));
}

function ifaceParam(ctx: HandlerContext): string {
  return str(ctx, "iface") ?? "";
}

/** "255.255.255.0" -> 24; a prefix length stays as it is. */
function prefixOf(netmask: string): string {
  if (/^\d+$/.test(netmask)) return netmask;
  const bits = netmask.split(".").reduce((n, octet) => n + (Number(octet) >>> 0).toString(2).replace(/0/g, "").length, 0);
  return String(bits);
}

/** cidr and address/netmask describe the same thing: keep both, as PVE's parser reports both. */
function syncAddresses(iface: NetIface): void {
  if (typeof iface.cidr === "string") {
    const [address, prefix] = iface.cidr.split("/");
    iface.address = address ?? "";
    iface.netmask = prefix ?? "32";
  } else if (iface.address !== undefined && iface.netmask !== undefined) iface.cidr = `${iface.address}/${prefixOf(String(iface.netmask))}`;
  if (typeof iface.cidr6 === "string") {
    const [address, prefix] = iface.cidr6.split("/");
    iface.address6 = address ?? "";
    iface.netmask6 = prefix ?? "128";
  } else if (iface.address6 !== undefined && iface.netmask6 !== undefined) iface.cidr6 = `${iface.address6}/${iface.netmask6}`;
  // method and families follow the addresses (Network.pm sets them on every write).
  iface.families = [...(iface.address ? ["inet"] : []), ...(iface.address6 ? ["inet6"] : [])];
  if (iface.families.length === 0) iface.families = ["inet"];
  iface.method = iface.address ? "static" : "manual";
  iface.method6 = iface.address6 ? "static" : "manual";
}

function checkDuplicateGateway(ifaces: Record<string, NetIface>, name: string, options: NetIface): void {
  for (const [key, label] of [
    ["gateway", "Default gateway"],
    ["gateway6", "Default ipv6 gateway"],
  ] as const) {
    if (options[key] === undefined) continue;
    for (const [other, iface] of Object.entries(ifaces)) {
      if (other !== name && iface[key]) throw paramError(key, `${label} already exists on interface '${other}'.`);
    }
  }
}

/**
 * Flags PVE's interfaces reader sets to 1 when their line is there; written only when true,
 * so a 0 reads back as absent. Every other value is read back from the file as text.
 */
const FLAGS = new Set(["autostart", "bridge_vlan_aware"]);

/** The request's stanza options as PVE reads them back from the file it wrote (`mtu: "9000"`). */
function options(ctx: HandlerContext): NetIface {
  const out: NetIface = {};
  for (const [key, value] of Object.entries(ctx.params)) {
    if (value === undefined || CONTROL.has(key)) continue;
    out[key] = FLAGS.has(key) ? Number(value) : typeof value === "number" ? String(value) : value;
  }
  return out;
}

/** Drops the flags set to 0 (the writer leaves their line out). */
function dropClearedFlags(iface: NetIface): void {
  for (const key of FLAGS) if (iface[key] === 0) delete iface[key];
}

/** An interface as read back: numbers other than the reader's own flags are text (older state files held numbers). */
function readBack(iface: NetIface): NetIface {
  const out: NetIface = {};
  for (const [key, value] of Object.entries(iface)) out[key] = typeof value === "number" && !FLAGS.has(key) ? String(value) : value;
  return out;
}

function list(ctx: HandlerContext): PveResult | NetIface[] {
  const node = pathNode(ctx);
  const ifaces = effectiveInterfaces(node);
  const applied = node.network?.current ?? ifaces;
  const order = orderedNames(ifaces);
  const entries = order.map((name, i) => {
    const iface = ifaces[name] as NetIface;
    const entry: NetIface = { iface: name, ...readBack(iface), priority: i + 1 };
    // Only interfaces of the running configuration are up; a pending new one is not yet.
    if (applied[name] && (iface.type === "eth" || iface.autostart)) entry.active = 1;
    if (iface.type === "eth") entry.exists = 1;
    return entry;
  });
  // Bridges first: clients such as community.general's inventory take the first entry's address.
  const isBridge = (e: NetIface) => e.type === "bridge" || e.type === "OVSBridge";
  const type = str(ctx, "type");
  const out = [...entries.filter(isBridge), ...entries.filter((e) => !isBridge(e))].filter((e) => {
    if (type === undefined || type === "include_sdn") return true;
    if (type === "any_bridge") return isBridge(e);
    if (type === "any_local_bridge") return e.type === "bridge";
    return e.type === type;
  });
  const pending = node.network?.pending;
  const current = node.network?.current;
  if (!pending || !current) return out;
  const before = renderInterfaces(current);
  const after = renderInterfaces(pending);
  if (before === after) return out;
  return new PveResult(out, { changes: unifiedDiff(before, after, "/etc/network/interfaces", "/etc/network/interfaces.new") });
}

function read(ctx: HandlerContext): NetIface {
  const iface = effectiveInterfaces(pathNode(ctx))[ifaceParam(ctx)];
  if (!iface) throw paramError("iface", "interface does not exist");
  return readBack(iface);
}

function create(ctx: HandlerContext): null {
  const name = ifaceParam(ctx);
  const ifaces = editableInterfaces(pathNode(ctx));
  if (ifaces[name]) throw paramError("iface", "interface already exists");
  const iface = options(ctx);
  checkDuplicateGateway(ifaces, name, iface);
  if (iface.type === "OVSIntPort" || iface.type === "OVSBond") {
    const bridge = typeof iface.ovs_bridge === "string" ? ifaces[iface.ovs_bridge] : undefined;
    if (!iface.ovs_bridge) throw paramError("ovs_bridge", "parameter is required");
    if (!bridge) throw paramError("ovs_bridge", `bridge '${iface.ovs_bridge}' does not exist`);
    if (bridge.type !== "OVSBridge") throw paramError("ovs_bridge", `interface '${iface.ovs_bridge}' is no OVS bridge`);
    const ports = String(bridge.ovs_ports ?? "")
      .split(/\s+/)
      .filter(Boolean);
    if (!ports.includes(name)) bridge.ovs_ports = [...ports, name].join(" ");
  }
  syncAddresses(iface);
  dropClearedFlags(iface);
  ifaces[name] = iface;
  return null;
}

function update(ctx: HandlerContext): null {
  const name = ifaceParam(ctx);
  const ifaces = editableInterfaces(pathNode(ctx));
  const iface = ifaces[name];
  if (!iface) throw paramError("iface", "interface does not exist");
  for (const key of (str(ctx, "delete") ?? "").split(/[,;\s]+/).filter(Boolean)) {
    delete iface[key];
    // An address goes with its cidr (and the other way round).
    if (key === "cidr" || key === "address") for (const k of ["cidr", "address", "netmask"]) delete iface[k];
    if (key === "cidr6" || key === "address6") for (const k of ["cidr6", "address6", "netmask6"]) delete iface[k];
  }
  const changes = options(ctx);
  checkDuplicateGateway(ifaces, name, changes);
  // A new address replaces the old one whichever form each was given in.
  if (changes.address !== undefined || changes.cidr !== undefined) for (const k of ["cidr", "address", "netmask"]) delete iface[k];
  if (changes.address6 !== undefined || changes.cidr6 !== undefined) for (const k of ["cidr6", "address6", "netmask6"]) delete iface[k];
  Object.assign(iface, changes);
  syncAddresses(iface);
  dropClearedFlags(iface);
  return null;
}

function remove(ctx: HandlerContext): null {
  const name = ifaceParam(ctx);
  const ifaces = editableInterfaces(pathNode(ctx));
  const iface = ifaces[name];
  if (!iface) throw paramError("iface", "interface does not exist");
  const bridge = typeof iface.ovs_bridge === "string" ? ifaces[iface.ovs_bridge] : undefined;
  if ((iface.type === "OVSIntPort" || iface.type === "OVSBond") && bridge?.ovs_ports) {
    bridge.ovs_ports = String(bridge.ovs_ports)
      .split(/\s+/)
      .filter((p) => p && p !== name)
      .join(" ");
  }
  delete ifaces[name];
  return null;
}

export function registerNetworkHandlers(router: Router): void {
  router.add("GET", "/nodes/{node}/network", list);
  router.add("GET", "/nodes/{node}/network/{iface}", read);
  router.add("POST", "/nodes/{node}/network", create);
  router.add("PUT", "/nodes/{node}/network/{iface}", update);
  router.add("DELETE", "/nodes/{node}/network/{iface}", remove);
  // Apply: a srvreload task renames interfaces.new over the file and reloads (ifreload -a).
  router.add("PUT", "/nodes/{node}/network", (ctx) => {
    const node = pathNode(ctx);
    return ctx.tasks.start({ node: node.name, type: "srvreload", id: "networking", kind: "config", work: () => applyPending(node) });
  });
  // Revert: interfaces.new is removed.
  router.add("DELETE", "/nodes/{node}/network", (ctx) => {
    const node = pathNode(ctx);
    if (node.network) delete node.network.pending;
    return null;
  });
}
