// Where the HA manager puts a resource (PVE::HA::Manager::select_service_node with the basic
// scheduler): the online nodes of its node-affinity rule's highest priority (every online node
// without a rule), narrowed by resource affinity, staying put when allowed, else the node with
// the fewest HA resources (then by name). Infeasible rules are dropped first, as the manager does.
import type { HaRuleState } from "../cluster/types.js";
import { positiveSets, ruleErrors } from "./rule-checks.js";

export interface CompiledRules {
  /** sid -> node -> priority (non-strict rules add every other node at -1). */
  nodeAffinity: Map<string, Record<string, number>>;
  /** sid -> resources to keep together with / apart from. */
  together: Map<string, Set<string>>;
  apart: Map<string, Set<string>>;
}

function addPair(map: Map<string, Set<string>>, a: string, b: string): void {
  if (a === b) return;
  const set = map.get(a) ?? new Set<string>();
  set.add(b);
  map.set(a, set);
}

/** The enabled, feasible rules with PVE's transforms applied (read_and_compile_rules_config). */
export function compileRules(rules: HaRuleState[], nodes: string[]): CompiledRules {
  const errors = ruleErrors(rules, nodes);
  const usable = rules.filter((r) => !r.disable && errors[r.rule] === undefined).map((r) => ({ ...r, resources: [...r.resources] }));
  const nodeRules = usable.filter((r) => r.type === "node-affinity");
  const positive = usable.filter((r) => r.type === "resource-affinity" && r.affinity === "positive");
  const negative = usable.filter((r) => r.type === "resource-affinity" && r.affinity === "negative");
  const together = new Map<string, Set<string>>();
  const apart = new Map<string, Set<string>>();
  for (const set of positiveSets(positive)) {
    // a positive group follows the node-affinity rule of any of its members
    const owner = nodeRules.find((n) => n.resources.some((r) => set.resources.has(r)));
    if (owner) owner.resources = [...new Set([...owner.resources, ...set.resources])];
    for (const a of set.resources) for (const b of set.resources) addPair(together, a, b);
  }
  for (const rule of negative) for (const a of rule.resources) for (const b of rule.resources) addPair(apart, a, b);
  // kept apart from one member of a positive group means apart from all of them
  for (const [sid, partners] of together) {
    for (const other of apart.get(sid) ?? []) {
      for (const p of partners) {
        addPair(apart, p, other);
        addPair(apart, other, p);
      }
    }
  }
  const nodeAffinity = new Map<string, Record<string, number>>();
  for (const rule of nodeRules) {
    const effective: Record<string, number> = { ...(rule.nodes ?? {}) };
    if (!rule.strict) for (const node of nodes) if (effective[node] === undefined) effective[node] = -1;
    for (const sid of rule.resources) nodeAffinity.set(sid, effective);
  }
  return { nodeAffinity, together, apart };
}

export interface PlacementInput {
  sid: string;
  current: string;
  failback: boolean;
  online: string[];
  /** sid -> node the resource is on (or moving to), for every other HA resource. */
  placed: Map<string, { node: string; target?: string }>;
  /** HA resources per node (the basic scheduler's score). */
  load: Map<string, number>;
  /** 'none' keeps a resource where it is when allowed; 'best-score' picks afresh (recovery). */
  preference: "none" | "best-score";
}

/** The node the resource should run on, or undefined when no node may take it. */
export function selectNode(rules: CompiledRules, p: PlacementInput): string | undefined {
  const online = new Set(p.online);
  const affinity = rules.nodeAffinity.get(p.sid);
  const allowed = new Set<string>();
  let preferred = new Set<string>();
  if (!affinity) {
    for (const n of online) allowed.add(n);
    preferred = new Set(online);
  } else {
    let best = Number.NEGATIVE_INFINITY;
    for (const [node, priority] of Object.entries(affinity)) {
      if (!online.has(node)) continue;
      allowed.add(node);
      if (priority > best) {
        best = priority;
        preferred = new Set();
      }
      if (priority === best) preferred.add(node);
    }
  }
  if (preferred.size === 0) return undefined;
  const togetherCount = new Map<string, number>();
  for (const partner of rules.together.get(p.sid) ?? []) {
    const at = p.placed.get(partner);
    const node = at?.target ?? at?.node;
    if (node && online.has(node)) togetherCount.set(node, (togetherCount.get(node) ?? 0) + 1);
  }
  const separate = new Set<string>();
  for (const partner of rules.apart.get(p.sid) ?? []) {
    const at = p.placed.get(partner);
    if (at?.node && online.has(at.node)) separate.add(at.node);
    if (at?.target && online.has(at.target)) separate.add(at.target);
  }
  const allowedHere = (node: string) => (togetherCount.get(node) ?? 0) > 0 || !separate.has(node);
  if (p.preference === "none" && !p.failback && allowed.has(p.current) && allowedHere(p.current)) return p.current;
  for (const node of separate) preferred.delete(node);
  const majority = [...togetherCount.entries()]
    .filter(([n]) => preferred.has(n))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (majority) preferred = new Set([majority[0]]);
  if (p.preference === "none" && preferred.has(p.current)) return p.current;
  const ranked = [...preferred].sort((a, b) => (p.load.get(a) ?? 0) - (p.load.get(b) ?? 0) || a.localeCompare(b));
  return ranked[0];
}
