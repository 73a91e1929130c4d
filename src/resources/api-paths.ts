// Paths of the QEMU endpoints the resource modules call, in one place.
// `{vmid}` stays a placeholder when the vmid is allocated at apply time.
import type { PowerAction } from "../plan/intent.js";

export type VmidRef = number | "{vmid}";

export const qemuPaths = {
  create: (node: string) => `/nodes/${node}/qemu`,
  guest: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}`,
  config: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/config`,
  resize: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/resize`,
  moveDisk: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/move_disk`,
  status: (node: string, vmid: VmidRef, action: PowerAction) =>
    `/nodes/${node}/qemu/${vmid}/status/${action}`,
};

/** Pool membership: PVE 9's `PUT /pools` takes the pool id as a parameter (`/pools/{poolid}` is deprecated). */
export const poolPaths = {
  update: "/pools",
};
