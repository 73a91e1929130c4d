// GET /cluster/nextid, /cluster/resources, /cluster/status (and /cluster/options, in its own file).
import { parsePropertyString, subSchemaOf } from "../../pve/index.js";
import { getEndpoint, paramSchema } from "../../schema/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { ClusterState, StorageState } from "../cluster/types.js";
import { storageOnNode, storageUsed } from "../cluster/volumes.js";
import { type HandlerContext, JsonList, PveApiError, type Router } from "../contract.js";
import { registerClusterOptionsHandlers } from "./cluster-options.js";
import { guestResources } from "./guest-resource.js";
import { nodeResource } from "./nodes.js";
import { sim, str } from "./context.js";

type Entry = Record<string, unknown>;

const VM_AUDIT = ["VM.Audit"];
const LOWER = 100;
const UPPER = 1_000_000;

/**
 * The range API2/Cluster.pm's nextid searches: datacenter.cfg `next-id: lower=…,upper=…`
 * (lower inclusive, upper exclusive), each bound defaulting to 100 and 1,000,000.
 */
function nextIdRange(state: ClusterState): { lower: number; upper: number } {
  const text = state.datacenterOptions?.["next-id"];
  const endpoint = getEndpoint("PUT", "/cluster/options");
  const format = endpoint ? subSchemaOf(paramSchema(endpoint, "next-id")) : undefined;
  if (text === undefined || !format) return { lower: LOWER, upper: UPPER };
  const range = parsePropertyString(String(text), format, "next-id");
  return { lower: Number(range.lower ?? LOWER), upper: Number(range.upper ?? UPPER) };
}

function nextid(ctx: HandlerContext): string {
  const model = sim(ctx);
  const wanted = ctx.params.vmid;
  if (wanted !== undefined) {
    const vmid = Number(wanted);
    if (model.guest(vmid)) throw new PveApiError(400, "Parameter verification failed.", { vmid: `VM ${vmid} already exists` });
    return String(vmid);
  }
  const used = new Set(model.state.guests.map((g) => g.vmid));
  const { lower, upper } = nextIdRange(model.state);
  for (let id = lower; id < upper; id++) if (!used.has(id)) return String(id);
  throw new PveApiError(500, `unable to get any free VMID in range [${lower}, ${upper}]`);
}

/** One storage as seen from one node. */
export function storageResource(model: SimCluster, storage: StorageState, node: string): Entry {
  const online = model.isNodeOnline(node);
  const entry: Entry = {
    id: `storage/${node}/${storage.id}`,
    type: "storage",
    storage: storage.id,
    node,
    plugintype: storage.type,
    status: online ? "available" : "unknown",
    shared: storage.shared ? 1 : 0,
    content: [...storage.content].sort().join(","),
  };
  if (online) {
    entry.disk = storageUsed(model.state, storage.id, node);
    entry.maxdisk = storage.total;
  }
  return entry;
}

function storageResources(ctx: HandlerContext, model: SimCluster): Entry[] {
  const out: Entry[] = [];
  for (const node of model.state.nodes) {
    for (const storage of model.state.storages) {
      if (!storageOnNode(storage, node.name)) continue;
      if (!ctx.hasPermission(`/storage/${storage.id}`, ["Datastore.Audit", "Datastore.AllocateSpace"], true)) continue;
      out.push(storageResource(model, storage, node.name));
    }
  }
  return out;
}

function resources(ctx: HandlerContext): JsonList {
  const model = sim(ctx);
  const type = str(ctx, "type");
  const visible =
    type === undefined || type === "vm" ? model.state.guests.filter((g) => ctx.hasPermission(`/vms/${g.vmid}`, VM_AUDIT)) : [];
  const guests = guestResources(
    model,
    visible.sort((a, b) => a.vmid - b.vmid),
  );
  const out: Entry[] = [];
  if (type === undefined || type === "node") {
    for (const node of model.state.nodes) out.push(nodeResource(ctx, model, node.name));
  }
  if (type === undefined || type === "storage") out.push(...storageResources(ctx, model));
  if (type === undefined) {
    for (const pool of model.state.pools) {
      if (ctx.hasPermission(`/pool/${pool.poolid}`, ["Pool.Audit"])) {
        out.push({ id: `/pool/${pool.poolid}`, type: "pool", pool: pool.poolid });
      }
    }
  }
  if (type === undefined || type === "sdn") {
    for (const node of model.state.nodes) {
      if (!ctx.hasPermission("/sdn/zones/localnetwork", ["SDN.Audit"])) continue;
      out.push({
        id: `sdn/${node.name}/localnetwork`,
        type: "sdn",
        sdn: "localnetwork",
        node: node.name,
        status: node.online ? "ok" : "unknown",
      });
    }
  }
  return new JsonList([guests, out]);
}

function clusterStatus(ctx: HandlerContext): Entry[] {
  const model = sim(ctx);
  const nodes = model.state.nodes;
  const out: Entry[] = [
    {
      type: "cluster",
      id: "cluster",
      name: model.state.clusterName,
      nodes: nodes.length,
      quorate: nodes.filter((n) => n.online).length * 2 > nodes.length ? 1 : 0,
      version: nodes.length + 2,
    },
  ];
  nodes.forEach((node, i) => {
    out.push({
      type: "node",
      id: `node/${node.name}`,
      name: node.name,
      nodeid: i + 1,
      ip: node.ip,
      online: node.online ? 1 : 0,
      local: i === 0 ? 1 : 0,
      level: "",
    });
  });
  return out;
}

export function registerClusterHandlers(router: Router): void {
  router.add("GET", "/cluster/nextid", nextid);
  router.add("GET", "/cluster/resources", resources);
  router.add("GET", "/cluster/status", clusterStatus);
  registerClusterOptionsHandlers(router);
}
