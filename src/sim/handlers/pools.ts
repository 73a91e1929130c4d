// Pools: GET/POST/PUT/DELETE /pools (PVE ≥ 8 style, poolid as parameter) and /pools/{poolid}.
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { GuestState, PoolState } from "../cluster/types.js";
import { storageOnNode } from "../cluster/volumes.js";
import { type HandlerContext, JsonList, PveApiError, type Router } from "../contract.js";
import { storageResource } from "./cluster.js";
import { flag, sim, str } from "./context.js";
import { guestResources } from "./guest-resource.js";

type Entry = Record<string, unknown>;

/** The pool, or PVE's error (prefixed as the writing calls wrap it). */
function requirePool(model: SimCluster, poolid: string, prefix = ""): PoolState {
  const pool = model.pool(poolid);
  if (!pool) throw new PveApiError(500, `${prefix}pool '${poolid}' does not exist`);
  return pool;
}

function members(ctx: HandlerContext, model: SimCluster, pool: PoolState, type?: string): JsonList {
  const guests: GuestState[] = [];
  if (type === undefined || type === "qemu" || type === "lxc") {
    for (const vmid of [...pool.vmids].sort((a, b) => a - b)) {
      const guest = model.guest(vmid);
      if (!guest || (type !== undefined && guest.type !== type)) continue;
      if (ctx.hasPermission(`/vms/${vmid}`, ["VM.Audit"])) guests.push(guest);
    }
  }
  const storages: Entry[] = [];
  if (type === undefined || type === "storage") {
    for (const id of pool.storages) {
      // one entry per storage, seen from the first node that has it (PVE: the answering node)
      const storage = model.state.storages.find((s) => s.id === id);
      const node = model.state.nodes.find((n) => storage && storageOnNode(storage, n.name));
      if (storage && node) storages.push(storageResource(model, storage, node.name));
    }
  }
  // the members are the pool's by definition: PVE lists them without a `pool` key
  return new JsonList([guestResources(model, guests, false), storages]);
}

function poolSummary(ctx: HandlerContext, model: SimCluster, pool: PoolState, withMembers: boolean, type?: string): Entry {
  const entry: Entry = { poolid: pool.poolid };
  if (pool.comment !== undefined) entry.comment = pool.comment;
  if (withMembers) entry.members = members(ctx, model, pool, type);
  return entry;
}

function listPools(ctx: HandlerContext): Entry[] {
  const model = sim(ctx);
  const poolid = str(ctx, "poolid");
  if (poolid !== undefined) {
    return [poolSummary(ctx, model, requirePool(model, poolid), true, str(ctx, "type"))];
  }
  return model.state.pools
    .filter((p) => ctx.hasPermission(`/pool/${p.poolid}`, ["Pool.Audit"]))
    .sort((a, b) => a.poolid.localeCompare(b.poolid))
    .map((p) => poolSummary(ctx, model, p, false));
}

function getPool(ctx: HandlerContext): Entry {
  const model = sim(ctx);
  const pool = requirePool(model, str(ctx, "poolid") ?? "");
  const entry: Entry = { members: members(ctx, model, pool, str(ctx, "type")) };
  if (pool.comment !== undefined) entry.comment = pool.comment;
  return entry;
}

function createPool(ctx: HandlerContext): null {
  const model = sim(ctx);
  const poolid = str(ctx, "poolid") ?? "";
  if (model.pool(poolid)) throw new PveApiError(500, `create pool failed: pool '${poolid}' already exists`);
  // Nested pools (PVE 8.1+): the parent must exist first.
  const parent = poolid.includes("/") ? poolid.slice(0, poolid.lastIndexOf("/")) : undefined;
  if (parent !== undefined && !model.pool(parent)) {
    throw new PveApiError(500, `create pool failed: parent '${parent}' of pool '${poolid}' does not exist`);
  }
  const comment = str(ctx, "comment");
  model.state.pools.push({ poolid, ...(comment !== undefined ? { comment } : {}), vmids: [], storages: [] });
  return null;
}

function splitIds(text: string | undefined): string[] {
  return splitList(text ?? "");
}

function updatePool(ctx: HandlerContext): null {
  const model = sim(ctx);
  const pool = requirePool(model, str(ctx, "poolid") ?? "", "update pools failed: ");
  const comment = str(ctx, "comment");
  if (comment !== undefined) pool.comment = comment;
  const remove = flag(ctx, "delete");
  const fail = (message: string) => new PveApiError(500, `update pools failed: ${message}`);
  for (const raw of splitIds(str(ctx, "vms"))) {
    const vmid = Number(raw);
    // PVE (pve-access-control Pool.pm): check_perm_modify on each guest named.
    ctx.checkPermission(`/vms/${vmid}`, ["Permissions.Modify", "VM.Allocate"], true);
    if (remove) {
      if (!pool.vmids.includes(vmid)) throw fail(`VM ${vmid} is not a pool member`);
      pool.vmids = pool.vmids.filter((v) => v !== vmid);
      continue;
    }
    if (pool.vmids.includes(vmid)) throw fail(`VM ${vmid} is already a pool member`);
    const current = model.poolOf(vmid);
    if (current !== undefined) {
      if (!flag(ctx, "allow-move")) {
        throw fail(`VM ${vmid} belongs already to pool '${current}' and 'allow-move' is not set`);
      }
      // Taking the guest out of its pool is a change of that pool too.
      ctx.checkPermission(`/pool/${current}`, ["Pool.Allocate"]);
      model.removeFromPools(vmid);
    }
    pool.vmids.push(vmid);
  }
  for (const id of splitIds(str(ctx, "storage"))) {
    ctx.checkPermission(`/storage/${id}`, ["Permissions.Modify", "Datastore.Allocate"], true);
    if (remove) {
      if (!pool.storages.includes(id)) throw fail(`Storage '${id}' is not a pool member`);
      pool.storages = pool.storages.filter((s) => s !== id);
      continue;
    }
    if (pool.storages.includes(id)) throw fail(`Storage '${id}' is already a pool member`);
    pool.storages.push(id);
  }
  return null;
}

function deletePool(ctx: HandlerContext): null {
  const model = sim(ctx);
  const pool = requirePool(model, str(ctx, "poolid") ?? "", "delete pool failed: ");
  const child = model.state.pools
    .map((p) => p.poolid)
    .find((id) => id.startsWith(`${pool.poolid}/`) && !id.slice(pool.poolid.length + 1).includes("/"));
  if (child !== undefined) throw new PveApiError(500, `delete pool failed: pool '${pool.poolid}' is not empty (contains pool '${child}')`);
  const vm = [...pool.vmids].sort((a, b) => a - b).find((v) => model.guest(v));
  if (vm !== undefined) throw new PveApiError(500, `delete pool failed: pool '${pool.poolid}' is not empty (contains VM ${vm})`);
  const storage = [...pool.storages].sort()[0];
  if (storage !== undefined) {
    throw new PveApiError(500, `delete pool failed: pool '${pool.poolid}' is not empty (contains storage '${storage}')`);
  }
  model.state.pools = model.state.pools.filter((p) => p !== pool);
  return null;
}

export function registerPoolHandlers(router: Router): void {
  router.add("GET", "/pools", listPools);
  router.add("POST", "/pools", createPool);
  router.add("PUT", "/pools", updatePool);
  router.add("DELETE", "/pools", deletePool);
  router.add("GET", "/pools/{poolid}", getPool);
  router.add("PUT", "/pools/{poolid}", updatePool);
  router.add("DELETE", "/pools/{poolid}", deletePool);
}
