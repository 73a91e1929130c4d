// The API calls of snapshot steps, for both guest kinds: PVE's snapshot endpoints have the same
// shape under /qemu and /lxc (only VMs take `vmstate`, the saved RAM of a running VM).
import type { GuestType } from "../plan/intent.js";
import type { ApiCall } from "../plan/types.js";
import { GUEST_KINDS } from "./index.js";

function base(kind: GuestType, node: string, vmid: number): string {
  return `/nodes/${encodeURIComponent(node)}/${kind}/${vmid}/snapshot`;
}

export function snapshotCreateCall(
  kind: GuestType,
  node: string,
  vmid: number,
  name: string,
  options: { vmstate?: boolean; description?: string } = {},
): ApiCall {
  // Only a kind whose snapshots hold RAM takes `vmstate` (PVE's container snapshot has no such parameter).
  const vmstate = GUEST_KINDS[kind].rules.snapshotsSaveRam && options.vmstate === true;
  return {
    method: "POST",
    path: base(kind, node, vmid),
    params: { snapname: name, ...(vmstate ? { vmstate: 1 } : {}), ...(options.description ? { description: options.description } : {}) },
    intent: { kind, op: "snapshot", action: "create", name, ...(vmstate ? { vmstate: true } : {}) },
  };
}

export function snapshotDeleteCall(kind: GuestType, node: string, vmid: number, name: string): ApiCall {
  return {
    method: "DELETE",
    path: `${base(kind, node, vmid)}/${encodeURIComponent(name)}`,
    params: {},
    intent: { kind, op: "snapshot", action: "delete", name },
  };
}

export function snapshotRollbackCall(kind: GuestType, node: string, vmid: number, name: string, start: boolean): ApiCall {
  return {
    method: "POST",
    path: `${base(kind, node, vmid)}/${encodeURIComponent(name)}/rollback`,
    params: start ? { start: 1 } : {},
    intent: { kind, op: "snapshot", action: "rollback", name },
  };
}
