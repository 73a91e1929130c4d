// Datacenter security groups: /cluster/firewall/groups[/{group}[/{pos}]] (pve-firewall
// API2/Firewall/Groups.pm and the GroupRules package of API2/Firewall/Rules.pm). Groups and
// their rules are stored (state.firewallGroups); nothing is enforced on guest traffic.
import { createHash } from "node:crypto";
import { splitList } from "../../pve/index.js";
import type { ClusterState, FirewallGroupState, FirewallRule } from "../cluster/types.js";
import { type HandlerContext, PveApiError, type Router } from "../contract.js";
import { num, sim, str } from "./context.js";

/** The rule options a client may set (PVE's copy_rule_data keys). */
const RULE_KEYS = [
  "type",
  "action",
  "enable",
  "comment",
  "source",
  "dest",
  "proto",
  "dport",
  "sport",
  "macro",
  "iface",
  "log",
  "icmp-type",
] as const;

function groups(state: ClusterState): FirewallGroupState[] {
  state.firewallGroups ??= [];
  return state.firewallGroups;
}

/** PVE answers cluster.fw lists with one digest over the list, copied into every entry. */
function withDigest<T extends Record<string, unknown>>(list: T[]): Array<T & { digest: string }> {
  const digest = createHash("sha1").update(JSON.stringify(list)).digest("hex");
  return list.map((entry) => ({ ...entry, digest }));
}

function requireGroup(ctx: HandlerContext): FirewallGroupState {
  const name = str(ctx, "group") ?? "";
  const group = groups(sim(ctx).state).find((g) => g.group === name);
  // RulesBase load_config: a missing group is a plain die (500)
  if (!group) throw new PveApiError(500, `no such security group '${name}'`);
  return group;
}

function requirePos(ctx: HandlerContext, group: FirewallGroupState): number {
  const pos = num(ctx, "pos") ?? 0;
  if (pos >= group.rules.length) throw new PveApiError(500, `no rule at position ${pos}`);
  return pos;
}

/** verify_rule for a group's rules: no nested groups, in/out/forward take ACCEPT/DROP/REJECT. */
function verifyRule(rule: FirewallRule): void {
  const errors: Record<string, string> = {};
  if (rule.type === "group") errors.type = "security groups not allowed";
  else if (!/^(ACCEPT|DROP|REJECT)$/.test(String(rule.action))) errors.action = `unknown action '${String(rule.action)}'`;
  if (Object.keys(errors).length > 0) throw new PveApiError(400, "Parameter verification failed.", errors);
}

function copyRuleData(ctx: HandlerContext, rule: FirewallRule): void {
  for (const key of RULE_KEYS) {
    const value = ctx.params[key];
    if (value !== undefined) rule[key] = value;
  }
}

function listGroups(ctx: HandlerContext): unknown[] {
  const list = [...groups(sim(ctx).state)]
    .sort((a, b) => a.group.localeCompare(b.group))
    .map((g) => ({ group: g.group, ...(g.comment ? { comment: g.comment } : {}) }));
  return withDigest(list);
}

/** POST /cluster/firewall/groups: create, or with `rename` rename/re-comment an existing group. */
function createGroup(ctx: HandlerContext): null {
  const all = groups(sim(ctx).state);
  const name = str(ctx, "group") ?? "";
  const rename = str(ctx, "rename");
  const comment = str(ctx, "comment");
  if (rename !== undefined) {
    const existing = all.find((g) => g.group === rename);
    if (!existing) throw new PveApiError(400, "Parameter verification failed.", { group: `Security group '${rename}' does not exists` });
    if (name !== rename && all.some((g) => g.group === name)) {
      throw new PveApiError(400, "Parameter verification failed.", { group: `Security group '${name}' does already exist` });
    }
    existing.group = name;
    if (comment !== undefined) existing.comment = comment;
    return null;
  }
  if (all.some((g) => g.group === name)) {
    throw new PveApiError(400, "Parameter verification failed.", { group: `Security group '${name}' already exists` });
  }
  all.push({ group: name, ...(comment !== undefined ? { comment } : {}), rules: [] });
  return null;
}

function deleteGroup(ctx: HandlerContext): null {
  const group = requireGroup(ctx);
  if (group.rules.length > 0) throw new PveApiError(500, `Security group '${group.group}' is not empty`);
  const all = groups(sim(ctx).state);
  all.splice(all.indexOf(group), 1);
  return null;
}

function listRules(ctx: HandlerContext): unknown[] {
  return withDigest(requireGroup(ctx).rules.map((rule, pos) => ({ ...rule, pos })));
}

function getRule(ctx: HandlerContext): unknown {
  const group = requireGroup(ctx);
  const pos = requirePos(ctx, group);
  return withDigest(group.rules.map((rule, at) => ({ ...rule, pos: at })))[pos];
}

/** New rules go first unless `pos` says where (a pos past the end appends). */
function createRule(ctx: HandlerContext): null {
  const group = requireGroup(ctx);
  const rule: FirewallRule = {};
  copyRuleData(ctx, rule);
  verifyRule(rule);
  rule.enable ??= 0; // PVE stores an unset enable as disabled
  const pos = Math.min(num(ctx, "pos") ?? 0, group.rules.length);
  group.rules.splice(pos, 0, rule);
  return null;
}

function updateRule(ctx: HandlerContext): null {
  const group = requireGroup(ctx);
  const pos = requirePos(ctx, group);
  const rule = group.rules[pos] as FirewallRule;
  const moveto = num(ctx, "moveto");
  if (moveto !== undefined && moveto !== pos) {
    // moving ignores every other argument; a target past the end appends
    group.rules.splice(pos, 1);
    group.rules.splice(Math.min(moveto > pos ? moveto - 1 : moveto, group.rules.length), 0, rule);
    return null;
  }
  const updated: FirewallRule = { ...rule };
  copyRuleData(ctx, updated);
  for (const key of splitList(str(ctx, "delete") ?? "")) delete updated[key];
  verifyRule(updated);
  group.rules[pos] = updated;
  return null;
}

function deleteRule(ctx: HandlerContext): null {
  const group = requireGroup(ctx);
  group.rules.splice(requirePos(ctx, group), 1);
  return null;
}

export function registerFirewallGroupHandlers(router: Router): void {
  router.add("GET", "/cluster/firewall/groups", listGroups);
  router.add("POST", "/cluster/firewall/groups", createGroup);
  router.add("GET", "/cluster/firewall/groups/{group}", listRules);
  router.add("POST", "/cluster/firewall/groups/{group}", createRule);
  router.add("DELETE", "/cluster/firewall/groups/{group}", deleteGroup);
  router.add("GET", "/cluster/firewall/groups/{group}/{pos}", getRule);
  router.add("PUT", "/cluster/firewall/groups/{group}/{pos}", updateRule);
  router.add("DELETE", "/cluster/firewall/groups/{group}/{pos}", deleteRule);
}
