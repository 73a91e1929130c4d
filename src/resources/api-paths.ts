// The guest endpoints the resource modules call, in one place, as typed calls (plan/call.ts):
// the endpoint as the schema names it and its path parameters. A vmid apply allocates is
// ALLOCATED_VMID here, never text in a path.
import { type BodyValue, endpointCall, type EndpointCall, type VmidRef } from "../plan/call.js";
import type { PowerAction } from "../plan/intent.js";

export type { VmidRef } from "../plan/call.js";
export { ALLOCATED_VMID } from "../plan/call.js";

type Body = Record<string, BodyValue>;

export const qemuEndpoints = {
  create: (node: string, body: Body): EndpointCall => endpointCall("POST", "/nodes/{node}/qemu", { node }, body),
  destroy: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("DELETE", "/nodes/{node}/qemu/{vmid}", { node, vmid }, body),
  config: (method: "PUT" | "POST", node: string, vmid: VmidRef, body: Body): EndpointCall =>
    method === "PUT"
      ? endpointCall("PUT", "/nodes/{node}/qemu/{vmid}/config", { node, vmid }, body)
      : endpointCall("POST", "/nodes/{node}/qemu/{vmid}/config", { node, vmid }, body),
  resize: (node: string, vmid: VmidRef): EndpointCall => endpointCall("PUT", "/nodes/{node}/qemu/{vmid}/resize", { node, vmid }),
  moveDisk: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("POST", "/nodes/{node}/qemu/{vmid}/move_disk", { node, vmid }, body),
  template: (node: string, vmid: VmidRef): EndpointCall => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/template", { node, vmid }),
  status: (node: string, vmid: VmidRef, action: PowerAction, body: Body): EndpointCall =>
    endpointCall("POST", `/nodes/{node}/qemu/{vmid}/status/${action}`, { node, vmid }, body),
  clone: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("POST", "/nodes/{node}/qemu/{vmid}/clone", { node, vmid }, body),
};

/** Pool membership: PVE 9's `PUT /pools` takes the pool id as a parameter (`/pools/{poolid}` is deprecated). */
export const poolEndpoints = {
  update: (body: Body): EndpointCall => endpointCall("PUT", "/pools", {}, body),
};

/** The LXC endpoints the container kind calls. */
export const lxcEndpoints = {
  create: (node: string, body: Body): EndpointCall => endpointCall("POST", "/nodes/{node}/lxc", { node }, body),
  destroy: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("DELETE", "/nodes/{node}/lxc/{vmid}", { node, vmid }, body),
  config: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("PUT", "/nodes/{node}/lxc/{vmid}/config", { node, vmid }, body),
  resize: (node: string, vmid: VmidRef): EndpointCall => endpointCall("PUT", "/nodes/{node}/lxc/{vmid}/resize", { node, vmid }),
  moveVolume: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("POST", "/nodes/{node}/lxc/{vmid}/move_volume", { node, vmid }, body),
  template: (node: string, vmid: VmidRef): EndpointCall => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/template", { node, vmid }),
  status: (node: string, vmid: VmidRef, action: PowerAction, body: Body): EndpointCall =>
    endpointCall("POST", `/nodes/{node}/lxc/{vmid}/status/${action}`, { node, vmid }, body),
  clone: (node: string, vmid: VmidRef, body: Body): EndpointCall =>
    endpointCall("POST", "/nodes/{node}/lxc/{vmid}/clone", { node, vmid }, body),
};

/** Each guest kind's endpoints, for code that plans the same call for every kind. */
export const guestEndpoints = { qemu: qemuEndpoints, lxc: lxcEndpoints };
