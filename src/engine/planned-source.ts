// A clone source this same plan creates or converts, as it will be once its steps ran: what the
// clone's own steps are planned against (its clone step waits for those steps at apply). A new
// source is predicted from its calls (resources/planned-config.ts); a live one converted to a
// template is the guest as read, stopped and a template, when nothing else of it changes.
import type { GuestPlan } from "../plan/types.js";
import { kindOf, type LiveGuest } from "../resources/index.js";
import { plannedConfig } from "../resources/planned-config.js";

/** Calls that change no config key: a live source with only these is predicted from its read. */
const KEEPS_CONFIG = new Set(["power", "template", "snapshot", "pool-membership"]);

/** The source as planned, or why it cannot be predicted (said after "…is created by this same plan, and"). */
export function predictSource(plan: GuestPlan, live: Map<number, LiveGuest>): LiveGuest | string {
  const vmid = plan.vmid;
  if (vmid === undefined) return `its vmid is allocated at apply (give ${plan.key} a vmid in the spec to clone it in the same run)`;
  const calls = plan.steps.flatMap((s) => s.calls);
  if (plan.exists) {
    const current = live.get(vmid);
    if (current === undefined || calls.some((c) => !KEEPS_CONFIG.has(c.intent.op)))
      return "it changes besides that (its clone is planned once it is as the spec says)";
    const state = plannedConfig(plan.steps, vmid, { config: {}, status: current.status, template: current.template })!;
    return { ...current, status: state.status, template: state.template };
  }
  const state = plannedConfig(plan.steps, vmid);
  if (state === undefined) return "it is made by a step whose result is not known before it runs (a clone or a restore)";
  return kindOf(plan).fromConfig({ vmid, node: plan.node, status: state.status, template: state.template }, state.config);
}
