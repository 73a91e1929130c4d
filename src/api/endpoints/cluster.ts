// Cluster-wide reads: the resource listing, the next free vmid, the cluster's status, the
// datacenter options.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { isPveError } from "../errors.js";
import { type ApiReader, get, wireShape } from "./call.js";

type ListedResource = ApiReturns<"/cluster/resources", "GET">[number];

/**
 * One entry of GET /cluster/resources. `maxcpu` is a number: pvestatd counts it and PVE sends
 * it as a JSON number (the generator widens every returned `number` to `number | string`
 * because config values such as `cpulimit` arrive as strings).
 */
export type ClusterResource = Omit<ListedResource, "maxcpu"> & { maxcpu?: number };

export type ClusterStatusEntry = ApiReturns<"/cluster/status", "GET">[number];

/** Nodes, storages, guests (and pools, SDN) in one listing; `type` narrows it to one kind. */
export async function getClusterResources(api: ApiReader, params?: ApiParams<"/cluster/resources", "GET">): Promise<ClusterResource[]> {
  return wireShape<ClusterResource[]>(await get(api, "/cluster/resources", params));
}

/** The first free vmid, as a number (PVE sends it as a string; the schema allows both). */
export async function getNextVmid(api: ApiReader): Promise<number> {
  return Number(await get(api, "/cluster/nextid"));
}

/**
 * Whether `vmid` is in use by any guest of the cluster, visible to the caller or not: PVE's
 * nextid answers any user (`user => 'all'`) and refuses a taken vmid with "already exists".
 */
export async function isVmidFree(api: ApiReader, vmid: number): Promise<boolean> {
  try {
    await get(api, "/cluster/nextid", { vmid });
    return true;
  } catch (err) {
    if (isPveError(err) && err.classify().alreadyExists) return false;
    throw err;
  }
}

/** The cluster entry (with the corosync cluster name, absent on a standalone node) and one entry per node. */
export async function getClusterStatus(api: ApiReader): Promise<ClusterStatusEntry[]> {
  return get(api, "/cluster/status");
}

/**
 * The datacenter options (datacenter.cfg) as PVE answers GET /cluster/options: only the options
 * an operator set, each as written (Sys.Audit on /).
 */
export type DatacenterOptions = Record<string, unknown> & { max_workers?: number };

export async function getDatacenterOptions(api: ApiReader): Promise<DatacenterOptions> {
  return wireShape<DatacenterOptions>(await get(api, "/cluster/options"));
}

/**
 * A backup job as GET /cluster/backup lists it: the schema types only `id`; the other keys are
 * the job's options (PVE's jobs.cfg entry, property strings answered as objects), `type` and
 * `next-run`.
 */
export type BackupJobEntry = Record<string, unknown> & { id: string };

/** Every backup job of the cluster (Sys.Audit on /). */
export async function getBackupJobs(api: ApiReader): Promise<BackupJobEntry[]> {
  return wireShape<BackupJobEntry[]>(await get(api, "/cluster/backup"));
}
