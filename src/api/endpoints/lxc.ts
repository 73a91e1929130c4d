// One LXC container: its config, pending changes and run state.
import type { ApiReturns } from "../../schema/index.js";
import { type ApiReader, get, wireShape } from "./call.js";
import type { GuestConfig, PendingEntry } from "./qemu.js";

export type LxcStatus = ApiReturns<"/nodes/{node}/lxc/{vmid}/status/current", "GET">;

/** A container's config, in the same wire shape as a QEMU guest's (raw `lxc.*` entries, when set, are lists). */
export async function getLxcConfig(api: ApiReader, node: string, vmid: number): Promise<GuestConfig> {
  return wireShape<GuestConfig>(await get(api, "/nodes/{node}/lxc/{vmid}/config", { node, vmid }));
}

/** Every config key with its current value, its pending value (`[pve:pending]`) and whether it is to be deleted. */
export async function getLxcPending(api: ApiReader, node: string, vmid: number): Promise<PendingEntry[]> {
  return wireShape<PendingEntry[]>(await get(api, "/nodes/{node}/lxc/{vmid}/pending", { node, vmid }));
}

/** Run state (`status`), `lock` and `template`, among the container's live figures. */
export async function getLxcStatus(api: ApiReader, node: string, vmid: number): Promise<LxcStatus> {
  return get(api, "/nodes/{node}/lxc/{vmid}/status/current", { node, vmid });
}
