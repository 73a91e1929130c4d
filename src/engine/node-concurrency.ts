// How many guests apply works on at once per node. PVE's own bulk actions (stopall,
// migrateall) run as many workers per node as datacenter.cfg's `max_workers` says, so when the
// operator set it pvectl takes it too; without it, half the node's CPUs, between 2 and 8, so a
// small node is not flooded and a big one is not left idle.
import { type ApiReader, getDatacenterOptions } from "../api/endpoints/index.js";
import { PveError } from "../api/index.js";
import type { ClusterSnapshot } from "./cluster.js";

/**
 * datacenter.cfg's max_workers, or undefined when it is not set or not readable: reading it
 * needs Sys.Audit on `/`, which a least-privilege token need not have, and without it pvectl
 * sizes from the node's CPUs as before.
 */
export async function readMaxWorkers(client: ApiReader): Promise<number | undefined> {
  try {
    const value = Number((await getDatacenterOptions(client)).max_workers);
    return Number.isInteger(value) && value >= 1 ? value : undefined;
  } catch (err) {
    if (err instanceof PveError && err.status === 403) return undefined;
    throw err;
  }
}

export function defaultPerNode(cluster: ClusterSnapshot, node: string, maxWorkers?: number): number {
  if (maxWorkers !== undefined) return maxWorkers;
  const cpus = cluster.nodes.get(node)?.maxcpu ?? 8;
  return Math.max(2, Math.min(8, Math.floor(cpus / 2)));
}
