// Plans the spec's HA rules against the cluster's: create the missing, update the keys the spec
// names that differ, delete pvectl's rules the spec no longer lists, and list foreign rules as
// not managed. A rule of a spec id that pvectl did not create is refused unless `adopt: true`.
// PVE refuses a rule over a guest that is not an HA resource, or a node the cluster does not
// have, and a rule's type never changes: said in the plan, before anything runs.
import type { FieldChange, ObjectPlan, Step, StepDraft } from "../../plan/types.js";
import type { FamilyPlans } from "../object-family.js";
import { type DesiredHaRule, type DesiredHaRules, HA_RULE_MARKER, type LiveHaRule, markedComment } from "./model.js";
import { parseNodes, ruleDefault } from "./normalize.js";
import { createRuleStep, deleteRuleStep, updateRuleStep } from "./steps.js";

/** What planning knows of the cluster besides its rules. */
export interface HaRuleContext {
  /** Service ids the HA manager protects (`vm:100`), and those this plan makes HA resources. */
  haResources: Set<string>;
  nodes: string[];
  adopt?: boolean;
}

function numbered(key: string, drafts: StepDraft[]): Step[] {
  return drafts.map((draft, i) => ({ id: `ha-rule:${key}/${i + 1}-${draft.action}`, ...draft }));
}

function plan(key: string, exists: boolean, drafts: StepDraft[], extra: Partial<ObjectPlan> = {}): ObjectPlan {
  return { kind: "ha-rule", key, exists, steps: numbered(key, drafts), errors: [], warnings: [], ...extra };
}

/** PVE's own refusals of a rule's contents (pve-ha-manager's API checks). */
function contentErrors(rule: DesiredHaRule, context: HaRuleContext): string[] {
  const errors: string[] = [];
  const where = rule.where ? ` (${rule.where})` : "";
  const unmanaged = (rule.params.resources ?? "").split(",").filter((sid) => sid !== "" && !context.haResources.has(sid));
  if (unmanaged.length > 0) {
    errors.push(
      `HA rule ${rule.rule}${where} names ${unmanaged.join(", ")}, which ${unmanaged.length > 1 ? "are not HA resources" : "is not an HA resource"}: PVE refuses rules over guests HA does not manage; make ${unmanaged.length > 1 ? "them HA resources" : "it an HA resource"} first, or leave ${unmanaged.length > 1 ? "them" : "it"} out of the rule`,
    );
  }
  const unknown = Object.keys(parseNodes(rule.params.nodes ?? "")).filter((n) => !context.nodes.includes(n));
  if (unknown.length > 0) {
    errors.push(
      `HA rule ${rule.rule}${where} names node${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}, which the cluster does not have (it has ${context.nodes.join(", ")})`,
    );
  }
  return errors;
}

/** The update of an existing rule: the keys the spec names that differ. */
function updateOf(rule: DesiredHaRule, live: LiveHaRule): StepDraft | undefined {
  const set: Record<string, string> = {};
  const changes: FieldChange[] = [];
  for (const key of Object.keys(rule.params).sort()) {
    const want = rule.params[key]!;
    const have = live.params[key];
    if (want === (have ?? ruleDefault(key))) continue;
    set[key] = want;
    changes.push({ field: key, ...(have !== undefined ? { before: have } : {}), after: want });
  }
  const text = rule.comment ?? live.comment;
  if (!live.marked || (rule.comment !== undefined && rule.comment !== (live.comment ?? ""))) {
    set.comment = markedComment(text);
    changes.push({ field: "comment", ...(live.comment !== undefined ? { before: live.comment } : {}), after: text ?? "" });
  }
  if (changes.length === 0) return undefined;
  return updateRuleStep(rule.rule, live.type, set, changes, !live.marked, rule.params.resources ?? live.params.resources);
}

function adoptionRefusal(rule: DesiredHaRule): string {
  const where = rule.where ? ` (${rule.where})` : "";
  return `HA rule ${rule.rule}${where} exists but was not created by pvectl (no ${HA_RULE_MARKER} marker in its comment); add \`adopt: true\` to the spec entry to manage it, or give the spec rule another id`;
}

function planOne(rule: DesiredHaRule, live: LiveHaRule | undefined, context: HaRuleContext, refused: FamilyPlans["refused"]): ObjectPlan {
  const errors = contentErrors(rule, context);
  if (live === undefined) {
    if (errors.length > 0) return plan(rule.rule, false, [], { errors });
    return plan(rule.rule, false, [createRuleStep(rule.rule, rule.type, rule.params, rule.comment)]);
  }
  if (!live.marked && !rule.adopt && !context.adopt) {
    const message = adoptionRefusal(rule);
    refused.push({ key: rule.rule, message });
    return plan(rule.rule, true, [], { errors: [`left alone: ${message}`] });
  }
  if (live.type !== rule.type) {
    errors.push(
      `HA rule ${rule.rule} is a ${live.type} rule on the cluster and a ${rule.type} rule in the spec: PVE cannot change a rule's type; give the spec rule another id`,
    );
  }
  const warnings = live.errors !== undefined ? [`PVE does not apply HA rule ${rule.rule} as it stands: ${live.errors}`] : [];
  if (errors.length > 0) return plan(rule.rule, true, [], { errors, warnings });
  const update = updateOf(rule, live);
  return plan(rule.rule, true, update ? [update] : [], { warnings });
}

export function planHaRules(desired: DesiredHaRules, live: LiveHaRule[], context: HaRuleContext): FamilyPlans {
  const byId = new Map(live.map((r) => [r.rule, r]));
  const wanted = new Set(desired.rules.map((r) => r.rule));
  const refused: FamilyPlans["refused"] = [];
  const objects = desired.rules.map((rule) => planOne(rule, byId.get(rule.rule), context, refused));
  for (const rule of live) {
    if (wanted.has(rule.rule)) continue;
    if (rule.marked) objects.push(plan(rule.rule, true, [deleteRuleStep(rule.rule)]));
    else objects.push(plan(rule.rule, true, [], { foreign: true }));
  }
  return { objects, refused };
}
