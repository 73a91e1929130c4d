// The three steps of an HA rule: create (POST), update (PUT, which PVE wants with the rule's
// type), delete. A rule lands in the HA manager's next round: a node-affinity rule may make it
// move guests (VMs live, containers by restart), so a step over containers is service-impact.
import { endpointCall } from "../../plan/call.js";
import type { ObjectIntent } from "../../plan/intent.js";
import type { FieldChange, ParamValue, Severity, StepDraft } from "../../plan/types.js";
import { type HaRuleType, markedComment } from "./model.js";

function intent(op: ObjectIntent["op"], key: string): ObjectIntent {
  return { kind: "object", object: "ha-rule", op, key };
}

/** Containers move by restart: a rule that may move one disturbs its service. */
function placementImpact(resources: string | undefined): { severity: Severity; note: string } {
  const sids = (resources ?? "").split(",");
  if (sids.some((s) => s.startsWith("ct:"))) {
    return { severity: "service-impact", note: "; HA may move its containers to honour it (a container moves by restart)" };
  }
  return { severity: "configuration", note: "; HA may live-migrate its VMs to honour it" };
}

export function createRuleStep(rule: string, type: HaRuleType, params: Record<string, string>, comment: string | undefined): StepDraft {
  const sent: Record<string, ParamValue> = { rule, type, ...params, comment: markedComment(comment) };
  const changes: FieldChange[] = [{ field: "type", after: type }];
  for (const field of Object.keys(params).sort()) changes.push({ field, after: params[field]! });
  if (comment !== undefined) changes.push({ field: "comment", after: comment });
  const impact = placementImpact(params.resources);
  return {
    action: "object-create",
    severity: impact.severity,
    summary: `create HA rule ${rule} (${type})${impact.note}`,
    changes,
    calls: [{ ...endpointCall("POST", "/cluster/ha/rules", {}, sent), intent: intent("object-create", rule) }],
  };
}

export function updateRuleStep(
  rule: string,
  type: string,
  set: Record<string, string>,
  changes: FieldChange[],
  adopting: boolean,
  resources: string | undefined,
): StepDraft {
  const params: Record<string, ParamValue> = { type, ...set };
  const placement = Object.keys(set).some((k) => k !== "comment");
  const impact = placement ? placementImpact(set.resources ?? resources) : { severity: "configuration" as const, note: "" };
  return {
    action: "object-update",
    severity: impact.severity,
    summary: adopting
      ? `adopt HA rule ${rule} (pvectl's marker added to its comment)${impact.note}`
      : `update HA rule ${rule}${impact.note}`,
    changes,
    calls: [{ ...endpointCall("PUT", "/cluster/ha/rules/{rule}", { rule }, params), intent: intent("object-update", rule) }],
  };
}

/** Deleting a rule moves nothing: HA stops honouring it, its resources stay where they run. */
export function deleteRuleStep(rule: string): StepDraft {
  return {
    action: "object-delete",
    severity: "configuration",
    summary: `delete HA rule ${rule} (pvectl's, no longer in the spec): HA no longer places its resources by it; nothing moves now`,
    changes: [],
    calls: [{ ...endpointCall("DELETE", "/cluster/ha/rules/{rule}", { rule }), intent: intent("object-delete", rule) }],
  };
}
