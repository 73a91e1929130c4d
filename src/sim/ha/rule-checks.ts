// The feasibility checks of PVE 9's HA rules (PVE::HA::Rules, Rules::NodeAffinity,
// Rules::ResourceAffinity): which enabled rules conflict, with PVE's messages, per rule and
// property. The API refuses a created or updated rule that ends up here; other rules keep their
// place in the file and GET shows their `errors`; the manager drops them all when it compiles.
import type { HaRuleState } from "../cluster/types.js";

/** rule id -> property -> messages, in the order PVE's checks push them. */
export type RuleErrors = Record<string, Record<string, string[]>>;

function push(errors: RuleErrors, rule: string, message: string): void {
  const byProp = errors[rule] ?? {};
  errors[rule] = byProp;
  byProp.resources = [...(byProp.resources ?? []), message];
}

const intersects = (a: Iterable<string>, b: Set<string>): boolean => [...a].some((x) => b.has(x));

/** Positive rules merged where their resources overlap (find_disjoint_rules_resource_sets). */
export function positiveSets(positive: HaRuleState[]): Array<{ rules: string[]; resources: Set<string> }> {
  const lowest = (r: HaRuleState) => [...r.resources].sort()[0] ?? "";
  const sorted = [...positive].sort((a, b) => lowest(a).localeCompare(lowest(b)) || a.rule.localeCompare(b.rule));
  const sets: Array<{ rules: string[]; resources: Set<string> }> = [];
  for (const rule of sorted) {
    const found = sets.find((s) => intersects(rule.resources, s.resources));
    if (found) {
      found.rules.push(rule.rule);
      for (const r of rule.resources) found.resources.add(r);
    } else {
      sets.push({ rules: [rule.rule], resources: new Set(rule.resources) });
    }
  }
  return sets;
}

const hasMultiplePriorities = (rule: HaRuleState): boolean => new Set(Object.values(rule.nodes ?? {})).size > 1;

function nodeAffinityChecks(nodeRules: HaRuleState[], errors: RuleErrors): void {
  const bySid = new Map<string, string[]>();
  for (const rule of nodeRules) for (const sid of rule.resources) bySid.set(sid, [...(bySid.get(sid) ?? []), rule.rule]);
  const conflicts: Array<[string, string]> = [];
  for (const [sid, rules] of bySid) if (rules.length > 1) for (const r of rules) conflicts.push([r, sid]);
  conflicts.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  for (const [rule, sid] of conflicts) push(errors, rule, `resource '${sid}' is already used in another node affinity rule`);
}

function resourceAffinityChecks(affinity: HaRuleState[], nodeCount: number, errors: RuleErrors): void {
  for (const rule of [...affinity].sort((a, b) => a.rule.localeCompare(b.rule))) {
    if (rule.resources.length < 2) push(errors, rule.rule, "rule is ineffective as there are less than two resources");
  }
  const negative = affinity.filter((r) => r.affinity === "negative");
  for (const rule of [...negative].sort((a, b) => a.rule.localeCompare(b.rule))) {
    if (rule.resources.length > nodeCount) push(errors, rule.rule, "rule defines more resources than available nodes");
  }
  const conflicts: Array<[string, string]> = [];
  for (const set of positiveSets(affinity.filter((r) => r.affinity === "positive"))) {
    for (const neg of negative) {
      if (neg.resources.filter((r) => set.resources.has(r)).length < 2) continue;
      conflicts.push(["negative", neg.rule], ...set.rules.map((r): [string, string] => ["positive", r]));
    }
  }
  conflicts.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  for (const [kind, rule] of conflicts) {
    const other = kind === "positive" ? "negative" : "positive";
    push(errors, rule, `rule shares two or more resources with a ${other} resource affinity rule`);
  }
}

function globalChecks(nodeRules: HaRuleState[], affinity: HaRuleState[], errors: RuleErrors): void {
  const sortPairs = (list: Array<[string, string]>) => list.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  const priorities: Array<[string, string]> = [];
  for (const rule of affinity) {
    const paired = nodeRules.filter((n) => intersects(rule.resources, new Set(n.resources)));
    if (!paired.some(hasMultiplePriorities)) continue;
    priorities.push(["resource-affinity", rule.rule], ...paired.map((n): [string, string] => ["node-affinity", n.rule]));
  }
  for (const [kind, rule] of sortPairs(priorities)) {
    push(
      errors,
      rule,
      kind === "node-affinity"
        ? "resources are in a resource affinity rule and cannot be in a node affinity rule with multiple priorities"
        : "resources are in node affinity rules with multiple priorities",
    );
  }
  const positive: Array<[string, string]> = [];
  for (const set of positiveSets(affinity.filter((r) => r.affinity === "positive"))) {
    const paired = nodeRules.filter((n) => intersects(n.resources, set.resources));
    if (paired.length < 2) continue;
    positive.push(
      ...set.rules.map((r): [string, string] => ["positive", r]),
      ...paired.map((n): [string, string] => ["node-affinity", n.rule]),
    );
  }
  for (const [kind, rule] of sortPairs(positive)) {
    push(
      errors,
      rule,
      kind === "positive"
        ? "resources are in multiple node affinity rules"
        : "at least one resource is in a positive resource affinity rule and there are other resources in at least one other node affinity rule already",
    );
  }
  const negative: Array<[string, string]> = [];
  for (const rule of affinity.filter((r) => r.affinity === "negative")) {
    const located = new Set<string>();
    const allowed = new Set<string>();
    const paired: string[] = [];
    for (const n of nodeRules) {
      const common = rule.resources.filter((r) => n.resources.includes(r));
      if (common.length < 1) continue;
      for (const r of common) located.add(r);
      for (const node of Object.keys(n.nodes ?? {})) allowed.add(node);
      paired.push(n.rule);
    }
    if (allowed.size < located.size) negative.push(["negative", rule.rule], ...paired.map((p): [string, string] => ["node-affinity", p]));
  }
  for (const [kind, rule] of sortPairs(negative)) {
    push(
      errors,
      rule,
      kind === "negative"
        ? "two or more resources are restricted to less nodes than available to the resources"
        : "at least one resource is in a negative resource affinity rule and this rule would restrict these to less nodes than available to the resources",
    );
  }
}

/** check_feasibility over the enabled rules; `nodes` are the cluster's nodes. */
export function ruleErrors(rules: HaRuleState[], nodes: string[]): RuleErrors {
  const enabled = rules.filter((r) => !r.disable);
  const nodeRules = enabled.filter((r) => r.type === "node-affinity");
  const affinity = enabled.filter((r) => r.type === "resource-affinity");
  const errors: RuleErrors = {};
  nodeAffinityChecks(nodeRules, errors);
  resourceAffinityChecks(affinity, nodes.length, errors);
  globalChecks(nodeRules, affinity, errors);
  return errors;
}
