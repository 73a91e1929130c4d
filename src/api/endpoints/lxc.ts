// One LXC container: its config.
import { type ApiReader, get, wireShape } from "./call.js";
import type { GuestConfig } from "./qemu.js";

/** A container's config, in the same wire shape as a QEMU guest's (raw `lxc.*` entries, when set, are lists). */
export async function getLxcConfig(api: ApiReader, node: string, vmid: number): Promise<GuestConfig> {
  return wireShape<GuestConfig>(await get(api, "/nodes/{node}/lxc/{vmid}/config", { node, vmid }));
}
