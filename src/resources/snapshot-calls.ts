// The API calls of snapshot steps, for both guest kinds: PVE's snapshot endpoints have the same
// shape under /qemu and /lxc (only VMs take `vmstate`, the saved RAM of a running VM).
import type { GuestType } from "../plan/intent.js";
import type { ApiCall } from "../plan/types.js";
import { GUEST_KINDS } from "./index.js";

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
    ...GUEST_KINDS[kind].endpoints.snapshot("create", node, vmid, name, {
      snapname: name,
      ...(vmstate ? { vmstate: 1 } : {}),
      ...(options.description ? { description: options.description } : {}),
    }),
    intent: { kind, op: "snapshot", action: "create", name, ...(vmstate ? { vmstate: true } : {}) },
  };
}

export function snapshotDeleteCall(kind: GuestType, node: string, vmid: number, name: string): ApiCall {
  return {
    ...GUEST_KINDS[kind].endpoints.snapshot("delete", node, vmid, name, {}),
    intent: { kind, op: "snapshot", action: "delete", name },
  };
}

export function snapshotRollbackCall(kind: GuestType, node: string, vmid: number, name: string, start: boolean): ApiCall {
  return {
    ...GUEST_KINDS[kind].endpoints.snapshot("rollback", node, vmid, name, start ? { start: 1 } : {}),
    intent: { kind, op: "snapshot", action: "rollback", name },
  };
}
