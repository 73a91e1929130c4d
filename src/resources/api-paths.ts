// Paths of the guest endpoints the resource modules call, in one place.
// `{vmid}` stays a placeholder when the vmid is allocated at apply time.
import type { PowerAction } from "../plan/intent.js";

export type VmidRef = number | "{vmid}";

export const qemuPaths = {
  create: (node: string) => `/nodes/${node}/qemu`,
  guest: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}`,
  config: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/config`,
  resize: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/resize`,
  moveDisk: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/move_disk`,
  template: (node: string, vmid: VmidRef) => `/nodes/${node}/qemu/${vmid}/template`,
  status: (node: string, vmid: VmidRef, action: PowerAction) => `/nodes/${node}/qemu/${vmid}/status/${action}`,
};

/** Pool membership: PVE 9's `PUT /pools` takes the pool id as a parameter (`/pools/{poolid}` is deprecated). */
export const poolPaths = {
  update: "/pools",
};

/** Paths of the LXC endpoints the container kind calls. */
export const lxcPaths = {
  create: (node: string) => `/nodes/${node}/lxc`,
  guest: (node: string, vmid: VmidRef) => `/nodes/${node}/lxc/${vmid}`,
  config: (node: string, vmid: VmidRef) => `/nodes/${node}/lxc/${vmid}/config`,
  resize: (node: string, vmid: VmidRef) => `/nodes/${node}/lxc/${vmid}/resize`,
  moveVolume: (node: string, vmid: VmidRef) => `/nodes/${node}/lxc/${vmid}/move_volume`,
  template: (node: string, vmid: VmidRef) => `/nodes/${node}/lxc/${vmid}/template`,
  status: (node: string, vmid: VmidRef, action: PowerAction) => `/nodes/${node}/lxc/${vmid}/status/${action}`,
};
