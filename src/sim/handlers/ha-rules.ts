// HA rules (/cluster/ha/rules, PVE 9's PVE::API2::HA::Rules): node-affinity and
// resource-affinity rules in file order. Create and update refuse unknown resources and nodes
// and a rule the feasibility checks reject (400 "Rule 'x' is invalid." wrapped, as PVE's lock
// helper wraps it, into a 500); GET shows other rules' conflicts as `errors`.
import { createHash } from "node:crypto";
import { splitList } from "../../pve/index.js";
import type { SimCluster } from "../cluster/model.js";
import type { HaRuleState } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { runHaManager } from "../ha/manager.js";
import { ruleErrors } from "../ha/rule-checks.js";
import { isConfigured } from "../ha/sid.js";
import { sim, str } from "./context.js";

const PLUGIN_OPTIONS: Record<string, string[]> = {
  "node-affinity": ["resources", "nodes", "strict", "disable", "comment"],
  "resource-affinity": ["resources", "affinity", "disable", "comment"],
};
const REQUIRED: Record<string, string[]> = { "node-affinity": ["resources", "nodes"], "resource-affinity": ["resources", "affinity"] };

function rules(model: SimCluster): HaRuleState[] {
  model.state.haRules ??= [];
  return model.state.haRules;
}

function encodeNodes(nodes: Record<string, number>): string {
  return Object.keys(nodes)
    .sort()
    .map((n) => (nodes[n] ? `${n}:${nodes[n]}` : n))
    .join(",");
}

function ruleText(rule: HaRuleState): string {
  const lines = [`${rule.type}: ${rule.rule}`, `\tresources ${[...rule.resources].sort().join(",")}`];
  if (rule.nodes) lines.push(`\tnodes ${encodeNodes(rule.nodes)}`);
  for (const key of ["affinity", "strict", "disable", "comment"] as const) if (rule[key] !== undefined) lines.push(`\t${key} ${rule[key]}`);
  return `${lines.join("\n")}\n`;
}

function digest(model: SimCluster): string {
  return createHash("sha1").update(rules(model).map(ruleText).join("\n")).digest("hex");
}

function nodeNames(model: SimCluster): string[] {
  return model.nodeNames();
}

function apiRule(
  model: SimCluster,
  rule: HaRuleState,
  order: number,
  errors: Record<string, string[]> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    rule: rule.rule,
    type: rule.type,
    resources: [...rule.resources].sort().join(","),
    digest: digest(model),
    order,
  };
  if (rule.nodes) out.nodes = encodeNodes(rule.nodes);
  for (const key of ["affinity", "strict", "disable", "comment"] as const) if (rule[key] !== undefined) out[key] = rule[key];
  if (errors) out.errors = errors;
  return out;
}

function list(ctx: HandlerContext): Array<Record<string, unknown>> {
  const model = sim(ctx);
  const type = str(ctx, "type");
  const resource = str(ctx, "resource");
  const errors = ruleErrors(rules(model), nodeNames(model));
  return rules(model)
    .map((rule, i) => ({ rule, order: i + 1 }))
    .filter(({ rule }) => (type === undefined || rule.type === type) && (resource === undefined || rule.resources.includes(resource)))
    .map(({ rule, order }) => apiRule(model, rule, order, errors[rule.rule]));
}

function read(ctx: HandlerContext): Record<string, unknown> {
  const model = sim(ctx);
  const id = str(ctx, "rule") ?? "";
  const at = rules(model).findIndex((r) => r.rule === id);
  if (at < 0) throw new PveApiError(500, `no such ha rule '${id}'`);
  return apiRule(model, rules(model)[at] as HaRuleState, at + 1, ruleErrors(rules(model), nodeNames(model))[id]);
}

/** The rule options of a request, decoded (check_config with decode_value). */
function decoded(ctx: HandlerContext, type: string): Partial<HaRuleState> {
  const out: Partial<HaRuleState> = {};
  for (const key of ["resources", "nodes", "strict", "affinity", "disable", "comment"] as const) {
    const value = ctx.params[key];
    if (value === undefined) continue;
    if (!PLUGIN_OPTIONS[type]?.includes(key)) throw new PveApiError(500, `unexpected property '${key}'`);
    if (key === "resources") out.resources = [...new Set(splitList(String(value)).filter((sid) => /^[a-z]+:\S+$/.test(sid)))];
    else if (key === "nodes") out.nodes = parseNodes(String(value));
    else if (key === "strict" || key === "disable") out[key] = Number(value);
    else out[key] = String(value);
  }
  if (out.disable === 0) delete out.disable;
  return out;
}

function parseNodes(text: string): Record<string, number> {
  const nodes: Record<string, number> = {};
  for (const entry of splitList(text)) {
    const m = /^([a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?::(\d+))?$/.exec(entry);
    if (m) nodes[m[1] as string] = Number(m[2] ?? 0);
  }
  return nodes;
}

/** assert_valid_resources_param / assert_valid_nodes_param. */
function assertReferences(model: SimCluster, opts: Partial<HaRuleState>): void {
  if (opts.resources) {
    if (opts.resources.length === 0) throw new Error("no resources were specified");
    const unmanaged = [...opts.resources].sort().filter((sid) => !isConfigured(model, sid));
    if (unmanaged.length > 0) throw new Error(`cannot use unmanaged resource(s) ${unmanaged.join(", ")}.`);
  }
  if (opts.nodes) {
    if (Object.keys(opts.nodes).length === 0) throw new Error("no nodes were specified");
    const unknown = Object.keys(opts.nodes)
      .sort()
      .filter((n) => !model.node(n));
    if (unknown.length > 0) throw new Error(`cannot use non-existent node(s) ${unknown.join(", ")}.`);
  }
}

/** assert_feasibility: the rule itself must pass every check (the others only show `errors`). */
function assertFeasible(model: SimCluster, candidate: HaRuleState[], id: string): void {
  const errors = ruleErrors(candidate, nodeNames(model))[id];
  if (!errors) return;
  const lines = Object.entries(errors).map(([k, v]) => `${k}: ${v.join(", ")}`);
  throw new Error(`400 Rule '${id}' is invalid.\n${lines.join("\n")}`);
}

/** PVE::HA::Config::lock_ha_domain: an error inside becomes "<what> failed: <error>". */
function locked<T>(what: string, body: () => T): T {
  try {
    return body();
  } catch (err) {
    if (err instanceof PveApiError) throw err;
    throw new PveApiError(500, `${what}: ${(err as Error).message}`);
  }
}

function create(ctx: HandlerContext): null {
  const model = sim(ctx);
  const type = str(ctx, "type") as HaRuleState["type"];
  const id = str(ctx, "rule") ?? "";
  const opts = decoded(ctx, type);
  for (const key of REQUIRED[type] ?? []) {
    if (ctx.params[key] === undefined) throw new PveApiError(500, `missing value for required option '${key}'`);
  }
  locked("create ha rule failed", () => {
    if (rules(model).some((r) => r.rule === id)) throw new Error(`HA rule '${id}' already defined`);
    assertReferences(model, opts);
    const rule = { rule: id, type, resources: [], ...opts } as HaRuleState;
    // get_next_ordinal gives the lowest order plus one: the new rule lands second
    const next = [...rules(model)];
    next.splice(Math.min(1, next.length), 0, rule);
    assertFeasible(model, next, id);
    model.state.haRules = next;
  });
  runHaManager(model, ctx.tasks);
  return null;
}

function update(ctx: HandlerContext): null {
  const model = sim(ctx);
  const id = str(ctx, "rule") ?? "";
  locked("update HA rules failed", () => {
    const given = str(ctx, "digest");
    if (given !== undefined && given !== digest(model))
      throw new Error("detected modified configuration - file changed by other user? Try again.");
    const current = rules(model).find((r) => r.rule === id);
    if (!current) throw new Error(`HA rule '${id}' does not exist`);
    // check_config takes `type` only when it is the rule's own
    if (str(ctx, "type") !== undefined && str(ctx, "type") !== current.type) throw new Error("unexpected property 'type'");
    const opts = decoded(ctx, current.type);
    assertReferences(model, opts);
    const rule: HaRuleState = { ...current };
    for (const key of splitList(str(ctx, "delete") ?? "")) {
      if (!PLUGIN_OPTIONS[current.type]?.includes(key)) throw new Error(`no such option '${key}'`);
      if (REQUIRED[current.type]?.includes(key)) throw new Error(`unable to delete required option '${key}'`);
      if ((opts as Record<string, unknown>)[key] !== undefined)
        throw new Error(`cannot set and delete property '${key}' at the same time!`);
      delete (rule as unknown as Record<string, unknown>)[key];
    }
    Object.assign(rule, opts);
    const next = rules(model).map((r) => (r.rule === id ? rule : r));
    assertFeasible(model, next, id);
    model.state.haRules = next;
  });
  runHaManager(model, ctx.tasks);
  return null;
}

function remove(ctx: HandlerContext): null {
  const model = sim(ctx);
  const id = str(ctx, "rule") ?? "";
  model.state.haRules = rules(model).filter((r) => r.rule !== id);
  runHaManager(model, ctx.tasks);
  return null;
}

export function registerHaRuleHandlers(router: Router): void {
  router.add("GET", "/cluster/ha/rules", list);
  router.add("POST", "/cluster/ha/rules", create);
  router.add("GET", "/cluster/ha/rules/{rule}", read);
  router.add("PUT", "/cluster/ha/rules/{rule}", update);
  router.add("DELETE", "/cluster/ha/rules/{rule}", remove);
}
