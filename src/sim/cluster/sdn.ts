// SDN configuration as pve-network keeps it: the edited config (/etc/pve/sdn/*.cfg) and the
// running config that `PUT /cluster/sdn` commits (.running-config, with a version). Listings
// read either, or the pending view that compares the two (PVE::Network::SDN::pending_config).
import type { ClusterState, SdnConfig, SdnSections, SdnState } from "./types.js";

export type SdnKind = keyof SdnConfig;

export function sdnState(state: ClusterState): SdnState {
  state.sdn ??= { zones: {}, vnets: {}, subnets: {} };
  return state.sdn;
}

/** Which config a listing reads: `running=1`, `pending=1`, or the edited config (default). */
export function sdnView(state: ClusterState, kind: SdnKind, opts: { running: boolean; pending: boolean }): Record<string, SdnEntry> {
  const sdn = sdnState(state);
  const running = sdn.running?.[kind] ?? {};
  if (opts.pending) return pendingView(running, sdn[kind]);
  return opts.running ? running : sdn[kind];
}

/** An entry of a listing: a section, or in the pending view a section with `pending`/`state`. */
export type SdnEntry = Record<string, unknown>;

/**
 * PVE's pending view: running values at the top level, what applying would change under
 * `pending` (`deleted` for a removed key) and `state` new / changed / deleted. An object that
 * is new has only `type` (and a subnet's `vnet`) at the top level.
 */
export function pendingView(running: SdnSections, config: SdnSections): Record<string, SdnEntry> {
  const out: Record<string, { top: SdnEntry; pending: Record<string, string | number>; state?: string }> = {};
  for (const [id, was] of Object.entries(running)) {
    const now = config[id];
    const item: { top: SdnEntry; pending: Record<string, string | number>; state?: string } = { top: { ...was }, pending: {} };
    if (!now) item.state = "deleted";
    else {
      for (const key of Object.keys(was)) {
        if (now[key] === undefined) {
          item.pending[key] = "deleted";
          item.state = "changed";
        } else if (String(now[key]) !== String(was[key])) item.state = "changed";
      }
    }
    out[id] = item;
  }
  for (const [id, now] of Object.entries(config)) {
    const was = running[id];
    const item = out[id] ?? { top: {}, pending: {} };
    for (const [key, value] of Object.entries(now)) {
      if (key === "type" || key === "vnet") item.top[key] = value;
      else if (was?.[key] === undefined || String(was[key]) !== String(value)) item.pending[key] = value;
      if (!was) item.state = "new";
      else if (was[key] === undefined) item.state = "changed";
    }
    out[id] = item;
  }
  const view: Record<string, SdnEntry> = {};
  for (const [id, item] of Object.entries(out)) {
    // `pending` (even empty) and `state` only on objects that applying would change
    view[id] = item.state ? { ...item.top, pending: item.pending, state: item.state } : item.top;
  }
  return view;
}

/** PUT /cluster/sdn: the edited config becomes the running one (commit_config). */
export function commitSdn(state: ClusterState): number {
  const sdn = sdnState(state);
  const version = (sdn.running?.version ?? 0) + 1;
  sdn.running = structuredClone({ zones: sdn.zones, vnets: sdn.vnets, subnets: sdn.subnets, version });
  return version;
}

/**
 * Applied vnets a guest NIC on `node` may name as its bridge (PVE creates a bridge per vnet
 * on every node of the vnet's zone when the config is applied).
 */
export function sdnBridges(state: ClusterState, node: string): string[] {
  const running = state.sdn?.running;
  if (!running) return [];
  return Object.entries(running.vnets)
    .filter(([, vnet]) => {
      const zone = running.zones[String(vnet.zone)];
      return zone !== undefined && (zone.nodes === undefined || String(zone.nodes).split(",").includes(node));
    })
    .map(([id]) => id);
}

/** The SDN zone a bridge belongs to for SDN.Use checks: an applied vnet's zone, else localnetwork. */
export function bridgeZone(state: ClusterState, bridge: string): string {
  const zone = state.sdn?.running?.vnets[bridge]?.zone;
  return zone === undefined ? "localnetwork" : String(zone);
}
