// Pool membership calls (PVE 9's `PUT /pools` takes the pool id as a parameter; the guest
// type does not matter), built with their intent.
import type { ApiCall, ParamValue } from "../plan/types.js";
import { poolEndpoints } from "./api-paths.js";

function membership(pool: string, vmid: number, leave: boolean, flags: Record<string, ParamValue> = {}, from?: string): ApiCall {
  return {
    ...poolEndpoints.update({ poolid: pool, vms: String(vmid), ...flags }),
    intent: { kind: "pool", op: "pool-membership", pool, vmids: [vmid], leave, ...(from !== undefined ? { from } : {}) },
  };
}

export const poolCalls = {
  join: (pool: string, vmid: number): ApiCall => membership(pool, vmid, false),
  leave: (pool: string, vmid: number): ApiCall => membership(pool, vmid, true, { delete: 1 }),
  /**
   * Into `pool` from the one the guest is in (`allow-move`: one call, never in no pool between);
   * `from`, when known, is that pool (PVE checks Pool.Allocate there as well).
   */
  move: (pool: string, vmid: number, from?: string): ApiCall => membership(pool, vmid, false, { "allow-move": 1 }, from),
};
