// What PVE checks inside a clone handler beyond the endpoint's schema check (VM.Clone on the
// source, VM.Allocate on the new vmid or its pool): Datastore.AllocateSpace on every storage
// the copy allocates on (the target storage of a full clone, else each source volume's own)
// and SDN.Use on every bridge the copied NICs use. Every kind's clone is checked alike.
import type { CloneIntent } from "../plan/intent.js";
import type { PrivilegeNeed } from "../plan/types.js";

export function cloneNeeds(intent: CloneIntent): PrivilegeNeed[] {
  const storages = new Set(intent.volumes.map((v) => (intent.full && intent.storage !== undefined ? intent.storage : v.storage)));
  return [
    ...[...storages].sort().map((s) => ({ path: `/storage/${s}`, privilege: "Datastore.AllocateSpace" })),
    ...intent.bridges.map((b) => ({ path: `/sdn/zones/localnetwork/${b}`, privilege: "SDN.Use" })),
  ];
}
