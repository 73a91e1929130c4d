// Reads the live cluster at the requested facts level.
// basic: one GET /cluster/resources for every guest (plus pool membership and node status);
// config: plus each guest's config, read concurrently and bounded;
// agent: plus the guest agent's interfaces for running QEMU guests with the agent enabled.
import {
  type AgentInterface,
  type ApiReader,
  type ClusterResource,
  getClusterResources,
  getLxcConfig,
  getQemuAgentInterfaces,
  getQemuConfig,
  type GuestConfig,
} from "../api/endpoints/index.js";
import { mapConcurrent } from "../util/concurrency.js";
import type { AgentAddress, FactsLevel, InventoryGuest } from "./model.js";

/** The part of PveClient the inventory needs; anything with this method works (tests, other clients). */
export type InventoryApi = ApiReader;

export interface CollectOptions {
  level: FactsLevel;
  concurrency: number;
}

export interface CollectResult {
  guests: InventoryGuest[];
  offlineNodes: string[];
}

function splitTags(raw: string | undefined): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(/[;,\s]+/).filter((t) => t.length > 0))].sort();
}

function toGuest(entry: ClusterResource): InventoryGuest | undefined {
  if ((entry.type !== "qemu" && entry.type !== "lxc") || typeof entry.vmid !== "number" || !entry.node) return undefined;
  const guest: InventoryGuest = {
    vmid: entry.vmid,
    name: entry.name ?? "",
    node: entry.node,
    type: entry.type,
    status: entry.status ?? "unknown",
    template: entry.template === 1 || entry.template === true,
    tags: splitTags(entry.tags),
  };
  if (entry.pool) guest.pool = entry.pool;
  if (entry.maxcpu !== undefined) guest.maxcpu = entry.maxcpu;
  if (entry.maxmem !== undefined) guest.maxmem = entry.maxmem;
  if (entry.maxdisk !== undefined) guest.maxdisk = entry.maxdisk;
  if (entry.uptime !== undefined) guest.uptime = entry.uptime;
  return guest;
}

function agentEnabled(config: GuestConfig | undefined): boolean {
  const agent = config?.agent;
  if (agent === undefined) return false;
  const first = String(agent).split(",")[0] ?? "";
  const enabled = first.startsWith("enabled=") ? first.slice("enabled=".length) : first;
  return ["1", "on", "yes", "true"].includes(enabled);
}

function toAddresses(list: AgentInterface[]): AgentAddress[] {
  const addresses: AgentAddress[] = [];
  for (const iface of list) {
    for (const ip of iface["ip-addresses"] ?? []) {
      if (!ip["ip-address"]) continue;
      const entry: AgentAddress = {
        interface: iface.name ?? "",
        address: ip["ip-address"],
        family: ip["ip-address-type"] === "ipv6" ? "inet6" : "inet",
      };
      if (iface["hardware-address"]) entry.mac = iface["hardware-address"];
      if (ip.prefix !== undefined) entry.prefix = ip.prefix;
      addresses.push(entry);
    }
  }
  return addresses;
}

function describe(err: unknown): string {
  if (typeof err === "object" && err !== null && "pveMessage" in err && typeof err.pveMessage === "string") return err.pveMessage;
  return err instanceof Error ? err.message : String(err);
}

export async function collectGuests(api: InventoryApi, options: CollectOptions): Promise<CollectResult> {
  const resources = await getClusterResources(api);
  const offlineNodes = resources.flatMap((r) => (r.type === "node" && r.status !== "online" && r.node ? [r.node] : []));
  const guests = resources.map(toGuest).filter((g): g is InventoryGuest => g !== undefined);
  if (options.level === "basic") return { guests, offlineNodes };

  const offline = new Set(offlineNodes);
  await mapConcurrent(guests, options.concurrency, async (guest) => {
    if (offline.has(guest.node)) {
      guest.factErrors = [`node ${guest.node} is offline`];
      return;
    }
    try {
      guest.config = await (guest.type === "qemu" ? getQemuConfig : getLxcConfig)(api, guest.node, guest.vmid);
    } catch (err) {
      guest.factErrors = [`config: ${describe(err)}`];
      return;
    }
    if (options.level !== "agent" || guest.type !== "qemu" || guest.status !== "running" || !agentEnabled(guest.config)) return;
    try {
      guest.agentAddresses = toAddresses(await getQemuAgentInterfaces(api, guest.node, guest.vmid));
    } catch (err) {
      guest.factErrors = [...(guest.factErrors ?? []), `agent: ${describe(err)}`];
    }
  });
  return { guests, offlineNodes };
}
