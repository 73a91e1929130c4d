// Reads the live cluster at the requested facts level.
// basic: one GET /cluster/resources for every guest (plus pool membership and node status);
// config: plus each guest's config, read concurrently and bounded;
// agent: plus the guest agent's interfaces for running QEMU guests with the agent enabled;
// plugin: config and agent as above, plus qmpstatus (one call per node with running VMs) and
// the snapshot lists of the guests whose config names a snapshot parent.
// Per-guest reads are made only for the guests that will be hosts (`select`).
import type { ApiReader } from "../api/endpoints/call.js";
import { type ClusterResource, getClusterResources } from "../api/endpoints/cluster.js";
import { mapConcurrent } from "../util/concurrency.js";
import { readGuestFacts } from "./guest-facts.js";
import type { FactsLevel, InventoryGuest, InventoryNode } from "./model.js";
import { readNodeAddresses, readQmpStatuses } from "./node-facts.js";

/** The part of PveClient the inventory needs; anything with this method works (tests, other clients). */
export type InventoryApi = ApiReader;

export interface CollectOptions {
  level: FactsLevel;
  concurrency: number;
  /** The guests that become hosts; only they get per-guest reads (default: every guest). */
  select?: (guest: InventoryGuest) => boolean;
  /** Plugin level: read every guest's snapshot list, not only where the config names a parent. */
  exactSnapshots?: boolean;
  /** Read the nodes' addresses (for `ansible_host` of the nodes group): one GET /cluster/status. */
  nodeAddresses?: boolean;
}

export interface CollectResult {
  guests: InventoryGuest[];
  offlineNodes: string[];
  /** Every node the listing shows (for the nodes group); absent in caches written before it existed. */
  nodes?: InventoryNode[];
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

function toNodes(resources: ClusterResource[]): InventoryNode[] {
  return resources
    .flatMap((r) => (r.type === "node" && r.node ? [{ name: r.node, online: r.status === "online" }] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function collectGuests(api: InventoryApi, options: CollectOptions): Promise<CollectResult> {
  const resources = await getClusterResources(api);
  const nodes = toNodes(resources);
  const offlineNodes = nodes.filter((n) => !n.online).map((n) => n.name);
  const guests = resources.map(toGuest).filter((g): g is InventoryGuest => g !== undefined);
  const nodeReads = options.nodeAddresses ? readNodeAddresses(api, nodes) : Promise.resolve();
  if (options.level === "basic") {
    await nodeReads;
    return { guests, offlineNodes, nodes };
  }

  const offline = new Set(offlineNodes);
  const reachable: InventoryGuest[] = [];
  for (const guest of options.select ? guests.filter(options.select) : guests) {
    if (offline.has(guest.node)) guest.factErrors = [`node ${guest.node} is offline`];
    else reachable.push(guest);
  }
  await Promise.all([
    nodeReads,
    options.level === "plugin" ? readQmpStatuses(api, reachable) : Promise.resolve(),
    mapConcurrent(reachable, options.concurrency, (guest) =>
      readGuestFacts(api, guest, options.level, { exactSnapshots: options.exactSnapshots ?? false }),
    ),
  ]);
  return { guests, offlineNodes, nodes };
}
