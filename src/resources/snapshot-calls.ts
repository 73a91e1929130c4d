// The API calls of snapshot steps, for both guest kinds: PVE's snapshot endpoints have the same
// shape under /qemu and /lxc (only VMs take `vmstate`, the saved RAM of a running VM).
import type { GuestType, SnapshotAction } from "../plan/intent.js";
import { endpointCall, type EndpointCall } from "../plan/call.js";
import type { ApiCall, BodyValue } from "../plan/types.js";

type Body = Record<string, BodyValue>;

/** The snapshot endpoints of each guest kind (the same shape under /qemu and /lxc). */
const ENDPOINTS: Record<GuestType, Record<SnapshotAction, (node: string, vmid: number, name: string, body: Body) => EndpointCall>> = {
  qemu: {
    create: (node, vmid, _name, body) => endpointCall("POST", "/nodes/{node}/qemu/{vmid}/snapshot", { node, vmid }, body),
    delete: (node, vmid, snapname, body) =>
      endpointCall("DELETE", "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}", { node, vmid, snapname }, body),
    rollback: (node, vmid, snapname, body) =>
      endpointCall("POST", "/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback", { node, vmid, snapname }, body),
  },
  lxc: {
    create: (node, vmid, _name, body) => endpointCall("POST", "/nodes/{node}/lxc/{vmid}/snapshot", { node, vmid }, body),
    delete: (node, vmid, snapname, body) =>
      endpointCall("DELETE", "/nodes/{node}/lxc/{vmid}/snapshot/{snapname}", { node, vmid, snapname }, body),
    rollback: (node, vmid, snapname, body) =>
      endpointCall("POST", "/nodes/{node}/lxc/{vmid}/snapshot/{snapname}/rollback", { node, vmid, snapname }, body),
  },
};

export function snapshotCreateCall(
  kind: GuestType,
  node: string,
  vmid: number,
  name: string,
  options: { vmstate?: boolean; description?: string } = {},
): ApiCall {
  const vmstate = kind === "qemu" && options.vmstate === true;
  return {
    ...ENDPOINTS[kind].create(node, vmid, name, {
      snapname: name,
      ...(vmstate ? { vmstate: 1 } : {}),
      ...(options.description ? { description: options.description } : {}),
    }),
    intent: { kind, op: "snapshot", action: "create", name, ...(vmstate ? { vmstate: true } : {}) },
  };
}

export function snapshotDeleteCall(kind: GuestType, node: string, vmid: number, name: string): ApiCall {
  return {
    ...ENDPOINTS[kind].delete(node, vmid, name, {}),
    intent: { kind, op: "snapshot", action: "delete", name },
  };
}

export function snapshotRollbackCall(kind: GuestType, node: string, vmid: number, name: string, start: boolean): ApiCall {
  return {
    ...ENDPOINTS[kind].rollback(node, vmid, name, start ? { start: 1 } : {}),
    intent: { kind, op: "snapshot", action: "rollback", name },
  };
}

/** The worker types PVE starts for snapshot calls (qemu-server's and pve-container's API handlers). */
const TASK_TYPES: Record<GuestType, Record<SnapshotAction, string>> = {
  qemu: { create: "qmsnapshot", delete: "qmdelsnapshot", rollback: "qmrollback" },
  lxc: { create: "vzsnapshot", delete: "vzdelsnapshot", rollback: "vzrollback" },
};

export function snapshotTaskType(kind: GuestType, action: SnapshotAction): string {
  return TASK_TYPES[kind][action];
}
