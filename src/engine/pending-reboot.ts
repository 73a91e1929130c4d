// What waits in PVE's pending section for a guest's next reboot, read back after apply when
// the reboot was held back (--defer-restart, or no --allow-restart), so the report names the
// keys an operator's maintenance window will apply.
import type { PveClient } from "../api/index.js";
import type { GuestPlan } from "../plan/types.js";
import { kindOf } from "../resources/index.js";
import type { GuestReport } from "./report.js";
import { errorText } from "./retry-policy.js";

/** Whether the guest's reboot step was planned and did not run. */
export function rebootHeldBack(report: GuestReport): boolean {
  return report.steps.some((s) => s.action === "reboot" && s.status !== "done");
}

/** Keys with a pending value or a pending delete (`GET .../pending`), sorted. */
export async function pendingKeys(
  client: PveClient,
  guest: Pick<GuestPlan, "kind" | "node">,
  vmid: number,
): Promise<{ keys: string[]; warning?: string }> {
  try {
    const entries = await kindOf(guest).read.pending(client, guest.node, vmid);
    const keys = entries.filter((e) => e.pending !== undefined || e.delete !== undefined).map((e) => e.key);
    return { keys: [...new Set(keys)].sort() };
  } catch (err) {
    return { keys: [], warning: `could not read the changes waiting for a reboot: ${errorText(err).split("\n")[0]}` };
  }
}
