// The qemu-server endpoints the VM kind calls, as typed calls (the shape every kind offers is
// GuestEndpoints in ../api-paths.ts).
import { endpointCall } from "../../plan/call.js";
import type { GuestEndpoints } from "../api-paths.js";

export const qemuEndpoints: GuestEndpoints & Required<Pick<GuestEndpoints, "configPost">> = {
  create: (node, body) => endpointCall("POST", "/nodes/{node}/qemu", { node }, body),
  destroy: (node, vmid, body) => endpointCall("DELETE", "/nodes/{node}/qemu/{vmid}", { node, vmid }, body),
  config: (node, vmid, body) => endpointCall("PUT", "/nodes/{node}/qemu/{vmid}/config", { node, vmid }, body),
  configPost: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/config", { node, vmid }, body),
  resize: (node, vmid) => endpointCall("PUT", "/nodes/{node}/qemu/{vmid}/resize", { node, vmid }),
  moveVolume: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/move_disk", { node, vmid }, body),
  template: (node, vmid) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/template", { node, vmid }),
  status: (node, vmid, action, body) => endpointCall("POST", `/nodes/{node}/qemu/{vmid}/status/${action}`, { node, vmid }, body),
  clone: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/clone", { node, vmid }, body),
  migrate: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/migrate", { node, vmid }, body),
  migratePreconditions: (node, vmid, target) => endpointCall("GET", "/nodes/{node}/qemu/{vmid}/migrate", { node, vmid }, { target }),
  snapshot: (action, node, vmid, snapname, body) => {
    if (action === "create") return endpointCall("POST", "/nodes/{node}/qemu/{vmid}/snapshot", { node, vmid }, body);
    if (action === "delete") return endpointCall("DELETE", "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}", { node, vmid, snapname }, body);
    return endpointCall("POST", "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback", { node, vmid, snapname }, body);
  },
};
