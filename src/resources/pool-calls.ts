// Pool membership calls (PVE 9's `PUT /pools` takes the pool id as a parameter; the guest
// type does not matter), built with their intent.
import type { ApiCall } from "../plan/types.js";
import { poolPaths } from "./api-paths.js";

export const poolCalls = {
  join(pool: string, vmid: number): ApiCall {
    return { method: "PUT", path: poolPaths.update, params: { poolid: pool, vms: String(vmid) }, intent: { kind: "pool", op: "pool-membership", pool, vmids: [vmid], leave: false } };
  },
  leave(pool: string, vmid: number): ApiCall {
    return { method: "PUT", path: poolPaths.update, params: { poolid: pool, vms: String(vmid), delete: 1 }, intent: { kind: "pool", op: "pool-membership", pool, vmids: [vmid], leave: true } };
  },
  /** Into `pool` from the one the guest is in (`allow-move`: one call, never in no pool between). */
  move(pool: string, vmid: number): ApiCall {
    return {
      method: "PUT",
      path: poolPaths.update,
      params: { poolid: pool, vms: String(vmid), "allow-move": 1 },
      intent: { kind: "pool", op: "pool-membership", pool, vmids: [vmid], leave: false },
    };
  },
};
