// The simulator's guest model: create the default (or --config) cluster, or load a saved one.
import { GIB as GiB } from "../../pve/index.js";
import type { Random } from "../contract.js";
import { type ClusterConfig, ClusterConfigError, normaliseClusterConfig } from "./cluster-config.js";
import { SimCluster } from "./model.js";
import type { ClusterState, VolumeState } from "./types.js";

export type { ClusterConfig } from "./cluster-config.js";
export { ClusterConfigError, clusterConfigSchema } from "./cluster-config.js";
export { SimCluster } from "./model.js";
export type { ClusterState, GuestState, NodeState, StorageState, VolumeState } from "./types.js";

export interface CreateClusterOptions {
  nodes?: number;
  config?: ClusterConfig;
  random: Random;
  now: () => number;
}

function contentVolume(volid: string, size: number, ctime: number, node: string | undefined): VolumeState {
  const [storage = "", name = ""] = volid.split(":");
  const dir = name.split("/")[0] ?? "";
  const file = name.split("/").pop() ?? "";
  let format = "raw";
  if (dir === "iso") format = "iso";
  else if (dir === "vztmpl") format = file.endsWith(".tar.zst") ? "tzst" : file.endsWith(".tar.gz") ? "tgz" : "txz";
  else if (dir === "snippets") format = "snippet";
  else if (dir === "import") format = file.split(".").pop() ?? "raw";
  const content = ["iso", "vztmpl", "snippets", "import", "backup"].includes(dir) ? dir : "images";
  return { volid, storage, content, format, size, ctime, ...(node ? { node } : {}) };
}

export function createClusterModel(options: CreateClusterOptions): SimCluster {
  const cfg = normaliseClusterConfig(options.config ?? {}, options.nodes);
  const now = Math.floor(options.now());
  const state: ClusterState = {
    clusterName: cfg.name,
    salt: options.random.hex(4),
    macPrefix: cfg.macPrefix,
    agentDelay: cfg.agentDelay,
    nodes: cfg.nodes.map((n, i) => ({
      name: n.name,
      online: true,
      cpus: n.cpus,
      memory: n.memory,
      rootDisk: 100 * GiB,
      bridges: n.bridges,
      bootTime: now - 86_400 * (3 + i),
      ip: `10.10.10.${11 + i}`,
    })),
    storages: cfg.storages,
    volumes: [],
    guests: [],
    pools: [],
    backupJobs: [],
  };
  for (const item of cfg.content) {
    const storage = state.storages.find((s) => item.volid.startsWith(`${s.id}:`));
    if (!storage) continue;
    if (storage.shared) state.volumes.push(contentVolume(item.volid, item.size, now, undefined));
    else {
      for (const node of state.nodes) {
        if (!storage.nodes || storage.nodes.includes(node.name)) {
          state.volumes.push(contentVolume(item.volid, item.size, now, node.name));
        }
      }
    }
  }
  return new SimCluster(state, { random: options.random, now: options.now });
}

/** Restores a cluster saved with `toJSON()` (a --state file). */
export function loadClusterModel(json: unknown, deps: { random: Random; now: () => number }): SimCluster {
  if (typeof json !== "object" || json === null) throw new ClusterConfigError("state file: not an object");
  const state = json as Partial<ClusterState>;
  for (const key of ["nodes", "storages", "volumes", "guests", "pools", "backupJobs"] as const) {
    if (!Array.isArray(state[key])) throw new ClusterConfigError(`state file: '${key}' is missing or not a list`);
  }
  const full: ClusterState = {
    clusterName: state.clusterName ?? "simcluster",
    salt: state.salt ?? deps.random.hex(4),
    macPrefix: state.macPrefix ?? "BC:24:11",
    agentDelay: state.agentDelay ?? 15,
    nodes: state.nodes ?? [],
    storages: state.storages ?? [],
    volumes: state.volumes ?? [],
    guests: state.guests ?? [],
    pools: state.pools ?? [],
    backupJobs: state.backupJobs ?? [],
    ...(state.firewallGroups ? { firewallGroups: state.firewallGroups } : {}),
    ...(state.sdn ? { sdn: state.sdn } : {}),
    ...(state.datacenterOptions ? { datacenterOptions: state.datacenterOptions } : {}),
    ...(state.replicationJobs ? { replicationJobs: state.replicationJobs } : {}),
    ...(state.haRules ? { haRules: state.haRules } : {}),
  };
  const cloned = structuredClone(full);
  // tasks running when the state was saved come back failed: the HA manager is no longer waiting for them
  for (const guest of cloned.guests) delete guest.haService?.inflight;
  return new SimCluster(cloned, deps);
}
