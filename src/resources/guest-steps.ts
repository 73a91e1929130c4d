// Steps every guest kind plans the same way (adopt, start, stop, reboot), built with the
// kind's own calls: the wording, severities and field changes are one thing, whatever the kind.
import type { PowerAction } from "../plan/intent.js";
import type { ApiCall, ParamValue, Step, StepDraft } from "../plan/types.js";
import { printTags } from "./formats.js";
import type { PowerOptions } from "./kind.js";
import { OWNERSHIP_TAG } from "./ownership.js";

/** The calls of a kind the whole-guest steps need. */
export interface GuestStepCalls {
  config(node: string, vmid: number, params: Record<string, ParamValue>): ApiCall;
  power(node: string, vmid: number, action: PowerAction, params?: Record<string, ParamValue>): ApiCall;
}

/** A guest's steps with their ids (`web1/2-stop`): the guest's key, the step's place and its action. */
export function withIds(key: string, drafts: StepDraft[]): Step[] {
  return drafts.map((draft, i) => ({ id: `${key}/${i + 1}-${draft.action}`, ...draft }));
}

/** What these steps read of a live guest. */
interface LiveGuestLike {
  vmid: number;
  node: string;
  name?: string;
  tags: string[];
}

/** Adoption: the ownership tag is added to a guest pvectl did not create, as a step of its own. */
export function adoptStep(calls: GuestStepCalls, live: LiveGuestLike): StepDraft {
  const before = printTags(live.tags);
  const after = printTags([...live.tags, OWNERSHIP_TAG]);
  return {
    action: "adopt",
    severity: "configuration",
    summary: `adopt: add tag ${OWNERSHIP_TAG} (vmid ${live.vmid} was not created by pvectl; its other tags stay)`,
    changes: [{ field: "tags", ...(before !== "" ? { before } : {}), after }],
    calls: [calls.config(live.node, live.vmid, { tags: after })],
  };
}

export function startStep(calls: GuestStepCalls, live: LiveGuestLike): StepDraft {
  return {
    action: "start",
    severity: "configuration",
    summary: `start ${live.name ?? live.vmid}`,
    changes: [{ field: "status", before: "stopped", after: "running" }],
    calls: [calls.power(live.node, live.vmid, "start")],
  };
}

export function stopStep(calls: Pick<GuestStepCalls, "power">, live: LiveGuestLike, power: PowerOptions, reason: string): StepDraft {
  const params: Record<string, ParamValue> = { timeout: power.shutdownTimeoutSeconds };
  if (power.forceStop) params.forceStop = 1;
  const how = power.forceStop
    ? `graceful shutdown, forced off after ${power.shutdownTimeoutSeconds}s`
    : `graceful shutdown, fails after ${power.shutdownTimeoutSeconds}s (use --force-stop to force it off)`;
  return {
    action: "stop",
    severity: "service-impact",
    summary: `stop ${live.name ?? live.vmid} ${reason}(${how})`,
    changes: [{ field: "status", before: "running", after: "stopped" }],
    calls: [calls.power(live.node, live.vmid, "shutdown", params)],
    shutdownTimeoutSeconds: power.shutdownTimeoutSeconds,
  };
}

/** `verb`: how the kind says it (a VM reboots, a container restarts). */
export function rebootStep(calls: GuestStepCalls, live: LiveGuestLike, keys: string[], verb: "reboot" | "restart"): StepDraft {
  return {
    action: "reboot",
    severity: "service-impact",
    summary: `${verb} ${live.name ?? live.vmid} to apply pending changes (${keys.join(", ")})`,
    changes: keys.map((k) => ({ field: k, before: "pending", after: "applied" })),
    calls: [calls.power(live.node, live.vmid, "reboot")],
  };
}
