// The pve-container endpoints the container kind calls, as typed calls (the shape every kind
// offers is GuestEndpoints in ../api-paths.ts). No POST …/config: a container's config is only
// ever PUT.
import { endpointCall } from "../../plan/call.js";
import type { GuestEndpoints } from "../api-paths.js";

export const lxcEndpoints: GuestEndpoints = {
  create: (node, body) => endpointCall("POST", "/nodes/{node}/lxc", { node }, body),
  destroy: (node, vmid, body) => endpointCall("DELETE", "/nodes/{node}/lxc/{vmid}", { node, vmid }, body),
  config: (node, vmid, body) => endpointCall("PUT", "/nodes/{node}/lxc/{vmid}/config", { node, vmid }, body),
  resize: (node, vmid) => endpointCall("PUT", "/nodes/{node}/lxc/{vmid}/resize", { node, vmid }),
  moveVolume: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/move_volume", { node, vmid }, body),
  template: (node, vmid) => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/template", { node, vmid }),
  status: (node, vmid, action, body) => endpointCall("POST", `/nodes/{node}/lxc/{vmid}/status/${action}`, { node, vmid }, body),
  clone: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/clone", { node, vmid }, body),
  migrate: (node, vmid, body) => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/migrate", { node, vmid }, body),
  migratePreconditions: (node, vmid, target) => endpointCall("GET", "/nodes/{node}/lxc/{vmid}/migrate", { node, vmid }, { target }),
  snapshot: (action, node, vmid, snapname, body) => {
    if (action === "create") return endpointCall("POST", "/nodes/{node}/lxc/{vmid}/snapshot", { node, vmid }, body);
    if (action === "delete") return endpointCall("DELETE", "/nodes/{node}/lxc/{vmid}/snapshot/{snapname}", { node, vmid, snapname }, body);
    return endpointCall("POST", "/nodes/{node}/lxc/{vmid}/snapshot/{snapname}/rollback", { node, vmid, snapname }, body);
  },
};
