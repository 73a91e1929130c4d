// A change pending on a key whose value in effect is already the spec's (live cores 2, pending
// cores 3, spec 2): dropping the pending change (`revert`) is all it takes. Rewriting the value
// would plan a change that waits for a reboot, and the reboot, for nothing; PVE itself drops a
// pending value equal to the current one (cleanup_pending in qemu-server and pve-container).
import type { FieldChange, StepDraft } from "../plan/types.js";
import type { GuestStepCalls } from "./guest-steps.js";

/** What the revert reads of a live guest. */
interface LiveWithPending {
  vmid: number;
  node: string;
  pendingKeys: string[];
  optionsInEffect?: Record<string, string>;
}

/**
 * Whether the spec's `value` for option `key` is the one in effect while a change of it is
 * pending. `effective` reads an option as the kind compares it (PVE's default when unset).
 */
export function undoesPending(
  live: LiveWithPending,
  key: string,
  value: string,
  effective: (options: Record<string, string>, key: string) => string | undefined,
): boolean {
  return live.optionsInEffect !== undefined && live.pendingKeys.includes(key) && effective(live.optionsInEffect, key) === value;
}

/** One configuration step that drops the pending changes of `changes`' fields; nothing to reboot for. */
export function revertStep(calls: GuestStepCalls, live: LiveWithPending, changes: FieldChange[]): StepDraft {
  const keys = changes.map((c) => c.field);
  return {
    action: "config",
    severity: "configuration",
    summary: `revert the pending change of ${keys.join(", ")} (the value in effect is the spec's; no reboot needed)`,
    changes,
    calls: [calls.config(live.node, live.vmid, { revert: keys.join(",") })],
  };
}
