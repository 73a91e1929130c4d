// Config keys that reach the hypervisor host rather than the guest: a container's host bind
// mount or device, a VM's raw QEMU `args`, a hookscript run by the host on each start. Applied
// as root@pam they are ordinary config writes to PVE, so the plan marks every step that adds,
// changes or removes one: its severity becomes host-access (when it was lower), and its
// `hostAccess` names the keys, so it runs only with --allow-host-access whatever else it is.
import { plannedValue } from "../plan/call.js";
import { type StepDraft, severityRank } from "../plan/types.js";

/** Whether `key` holding `value` (undefined: not set) reaches the host. */
export type ReachesHost = (key: string, value: string | undefined) => boolean;

/** The keys of `draft`'s create and configure calls that reach the host, before or after. */
function hostKeys(draft: StepDraft, reaches: ReachesHost, live: Record<string, string | undefined>): string[] {
  const keys = new Set<string>();
  for (const call of draft.calls) {
    const intent = call.intent;
    if (intent.op !== "create" && intent.op !== "configure") continue;
    for (const { key } of intent.writes) {
      const value = call.body[key] !== undefined ? plannedValue(call.body[key]) : undefined;
      if (reaches(key, value === undefined ? undefined : String(value)) || reaches(key, live[key])) keys.add(key);
    }
    if (intent.op === "configure") for (const key of intent.deletes) if (reaches(key, live[key])) keys.add(key);
  }
  return [...keys].sort();
}

/** Marks the drafts that touch a key reaching the host (`live`: the guest's current values by key). */
export function markHostAccess(drafts: StepDraft[], reaches: ReachesHost, live: Record<string, string | undefined> = {}): void {
  for (const draft of drafts) {
    const keys = hostKeys(draft, reaches, live);
    if (keys.length === 0) continue;
    draft.hostAccess = keys;
    if (severityRank(draft.severity) < severityRank("host-access")) draft.severity = "host-access";
  }
}
