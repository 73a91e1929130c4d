// What creating a guest needs whatever its kind (qemu-server and pve-container check the same):
// VM.Allocate on the new guest or its pool, the pool's own privilege when it joins one
// (check_perm_modify on /pool/<id>), and VM.PowerMgmt when the create also starts it.
import type { PrivilegeNeed } from "../plan/types.js";

export function guestCreateNeeds(create: { pool?: string; start: boolean }, vmPath: string): PrivilegeNeed[] {
  const { pool } = create;
  const needs: PrivilegeNeed[] = [
    pool ? { path: `/pool/${pool}`, privilege: "VM.Allocate", anyOf: ["VM.Allocate"] } : { path: vmPath, privilege: "VM.Allocate" },
  ];
  if (pool) needs.push({ path: `/pool/${pool}`, privilege: "Pool.Allocate", anyOf: ["Pool.Allocate", "Permissions.Modify"] });
  if (create.start) needs.push({ path: vmPath, privilege: "VM.PowerMgmt" });
  return needs;
}
