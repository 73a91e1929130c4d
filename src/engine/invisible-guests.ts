// A spec guest whose vmid the cluster listing lacks would be planned as a create, but PVE lists
// a guest only to whoever holds VM.Audit on it: the vmid may be taken by a guest this identity
// cannot see, and a "+ create" would be a lie the apply finds out half-way. So a vmid the
// identity could not see even if it existed (no VM.Audit on /vms/<vmid> in its permission dump)
// is asked of GET /cluster/nextid?vmid=, which answers anyone whether the vmid is free.
import { getPermissions, isVmidFree } from "../api/endpoints/index.js";
import type { PveClient } from "../api/index.js";
import type { PreflightProblem } from "../plan/types.js";
import { mapConcurrent } from "../util/concurrency.js";
import { granted } from "./privileges.js";

/** Of `vmids` (absent from the listing), those in use by a guest the caller cannot see. */
export async function hiddenVmids(client: PveClient, vmids: number[]): Promise<Set<number>> {
  const hidden = new Set<number>();
  if (vmids.length === 0) return hidden;
  const dump = await getPermissions(client);
  const unseeable = vmids.filter((vmid) => !granted(dump, `/vms/${vmid}`, "VM.Audit"));
  await mapConcurrent(unseeable, 4, async (vmid) => {
    if (!(await isVmidFree(client, vmid))) hidden.add(vmid);
  });
  return hidden;
}

/** The guest's line in the plan: not a create. */
export function invisibleGuestError(vmid: number): string {
  return `not created: vmid ${vmid} is in use by a guest this identity cannot see (see the preflight problem)`;
}

/** What is wrong, the privilege and path that would show the guest, and what to do. */
export function invisibleGuestProblem(key: string, vmid: number, identity: string): PreflightProblem {
  const path = `/vms/${vmid}`;
  return {
    kind: "permission",
    guest: key,
    path,
    privilege: "VM.Audit",
    message:
      `vmid ${vmid} (${key}) exists but is not visible to ${identity}: it lacks VM.Audit on ${path}, so PVE does not list the guest ` +
      `and a create would fail; grant VM.Audit on ${path} (or on the guest's pool) to manage it, or give ${key} another vmid`,
  };
}
