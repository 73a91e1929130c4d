// The shape of a guest kind's endpoints, as typed calls (plan/call.ts): the endpoint as the schema
// names it and its path parameters. Each kind's folder builds its own (qemu/endpoints.ts,
// lxc/endpoints.ts) and the kind contract carries them. A vmid apply allocates is ALLOCATED_VMID,
// never text in a path.
import { type BodyValue, endpointCall, type EndpointCall, type VmidRef } from "../plan/call.js";
import type { PowerAction, SnapshotAction } from "../plan/intent.js";

export type { VmidRef } from "../plan/call.js";
export { ALLOCATED_VMID } from "../plan/call.js";

export type Body = Record<string, BodyValue>;

/** What every guest kind's endpoints offer (PVE gives /qemu and /lxc the same shape for these). */
export interface GuestEndpoints {
  create(node: string, body: Body): EndpointCall;
  destroy(node: string, vmid: VmidRef, body: Body): EndpointCall;
  /** PUT …/config (answers at once); a kind whose rules say `configPost` also has `configPost`. */
  config(node: string, vmid: VmidRef, body: Body): EndpointCall;
  /** POST …/config: a task that may allocate (VMs only: qemu-server). */
  configPost?(node: string, vmid: VmidRef, body: Body): EndpointCall;
  resize(node: string, vmid: VmidRef): EndpointCall;
  /** move_disk (VMs) or move_volume (containers). */
  moveVolume(node: string, vmid: VmidRef, body: Body): EndpointCall;
  template(node: string, vmid: VmidRef): EndpointCall;
  status(node: string, vmid: VmidRef, action: PowerAction, body: Body): EndpointCall;
  clone(node: string, vmid: VmidRef, body: Body): EndpointCall;
  /** POST …/migrate: move the guest to another node (`target`); a task (qmigrate, vzmigrate). */
  migrate(node: string, vmid: number, body: Body): EndpointCall;
  /** GET …/migrate: PVE's own preconditions for moving the guest to `target`. */
  migratePreconditions(node: string, vmid: number, target: string): EndpointCall;
  snapshot(action: SnapshotAction, node: string, vmid: number, snapname: string, body: Body): EndpointCall;
}

/** Pool membership: PVE 9's `PUT /pools` takes the pool id as a parameter (`/pools/{poolid}` is deprecated). */
export const poolEndpoints = {
  update: (body: Body): EndpointCall => endpointCall("PUT", "/pools", {}, body),
};
