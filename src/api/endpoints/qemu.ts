// One QEMU guest: its config, pending changes, run state and guest-agent network facts.
import type { ApiParams, ApiReturns } from "../../schema/index.js";
import { type ApiReader, type ApiWriter, get, put, wireShape } from "./call.js";

/** A config value on the wire: the text PVE stores, or a number for numeric and boolean (0/1) keys. */
export type ConfigValue = string | number;

/**
 * A guest's config as GET .../config returns it. pvectl reads the keys generically, so this is
 * the wire's shape rather than the schema's per-key types (which promise booleans and enums
 * that arrive as 0/1 and plain text, and a `digest` older servers may leave out).
 */
export type GuestConfig = Record<string, ConfigValue> & { digest?: string };

/**
 * One entry of GET .../pending. The schema types `value` and `pending` as strings; PVE (and
 * the simulator) send numeric keys as numbers, as in the config.
 */
export interface PendingEntry {
  key: string;
  value?: ConfigValue;
  pending?: ConfigValue;
  /** 1: deleted at the next reboot; 2: forced delete. */
  delete?: number;
}

export type QemuStatus = ApiReturns<"/nodes/{node}/qemu/{vmid}/status/current", "GET">;

type ConfigUpdate = Omit<ApiParams<"/nodes/{node}/qemu/{vmid}/config", "PUT">, "node" | "vmid">;

export async function getQemuConfig(api: ApiReader, node: string, vmid: number): Promise<GuestConfig> {
  return wireShape<GuestConfig>(await get(api, "/nodes/{node}/qemu/{vmid}/config", { node, vmid }));
}

/** Synchronous config change (PUT): applied at once, or left pending where it needs a reboot. */
export async function updateQemuConfig(api: ApiWriter, node: string, vmid: number, params: ConfigUpdate): Promise<void> {
  await put(api, "/nodes/{node}/qemu/{vmid}/config", { ...params, node, vmid });
}

/** Every config key with its current value, its pending value and whether it is to be deleted. */
export async function getQemuPending(api: ApiReader, node: string, vmid: number): Promise<PendingEntry[]> {
  return wireShape<PendingEntry[]>(await get(api, "/nodes/{node}/qemu/{vmid}/pending", { node, vmid }));
}

/** Run state (`status`), `lock` and `template`, among the guest's live figures. */
export async function getQemuStatus(api: ApiReader, node: string, vmid: number): Promise<QemuStatus> {
  return get(api, "/nodes/{node}/qemu/{vmid}/status/current", { node, vmid });
}

/** An interface as the QEMU guest agent's `guest-network-get-interfaces` reports it. */
export interface AgentInterface {
  name?: string;
  "hardware-address"?: string;
  "ip-addresses"?: { "ip-address"?: string; "ip-address-type"?: string; prefix?: number }[];
}

/**
 * The guest's interfaces from its agent. The schema says only `object`: PVE passes the agent's
 * answer on as `{ result: [...] }`; anything else (no agent, an odd agent) reads as none.
 */
export async function getQemuAgentInterfaces(api: ApiReader, node: string, vmid: number): Promise<AgentInterface[]> {
  const answer = wireShape<{ result?: unknown } | null>(
    await get(api, "/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces", { node, vmid }),
  );
  const list = answer?.result;
  return Array.isArray(list) ? wireShape<AgentInterface[]>(list) : [];
}

/** Whether PVE can clone, copy or snapshot a guest's volumes (`hasFeature`), by the guest's type. */
export async function getGuestFeature(
  api: ApiReader,
  type: "qemu" | "lxc",
  node: string,
  vmid: number,
  feature: "snapshot" | "clone" | "copy",
  snapname?: string,
): Promise<{ hasFeature?: boolean | number }> {
  const at = snapname !== undefined ? { snapname } : {};
  if (type === "lxc") return get(api, "/nodes/{node}/lxc/{vmid}/feature", { node, vmid, feature, ...at });
  return get(api, "/nodes/{node}/qemu/{vmid}/feature", { node, vmid, feature, ...at });
}

/** A guest's config as it was at a snapshot (what a clone with `snapname` copies), by the guest's type. */
export async function getGuestSnapshotConfig(
  api: ApiReader,
  type: "qemu" | "lxc",
  node: string,
  vmid: number,
  snapname: string,
): Promise<GuestConfig> {
  if (type === "lxc")
    return wireShape<GuestConfig>(await get(api, "/nodes/{node}/lxc/{vmid}/snapshot/{snapname}/config", { node, vmid, snapname }));
  return wireShape<GuestConfig>(await get(api, "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/config", { node, vmid, snapname }));
}

export type QemuListEntry = ApiReturns<"/nodes/{node}/qemu", "GET">[number];

/** The VMs of a node; with `full`, PVE also asks each running VM's QEMU for its `qmpstatus` (paused, prelaunch ...). */
export async function getNodeQemuList(api: ApiReader, node: string, full: boolean): Promise<QemuListEntry[]> {
  return get(api, "/nodes/{node}/qemu", { node, full: full ? 1 : 0 });
}
