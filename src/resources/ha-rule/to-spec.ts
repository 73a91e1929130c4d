// A live HA rule in the spec's shape (`pvectl show`, `pvectl import`): a plan of the written
// spec against the same cluster is empty, except the adoption of a rule pvectl did not create
// (written with `adopt: true`: the plan adds pvectl's marker to its comment).
import { splitList } from "../../pve/index.js";
import type { LiveHaRule } from "./model.js";
import { parseNodes } from "./normalize.js";

export function haRuleToSpec(rule: LiveHaRule): Record<string, unknown> {
  const p = rule.params;
  const out: Record<string, unknown> = { rule: rule.rule };
  if (!rule.marked) out.adopt = true;
  out.type = rule.type;
  out.resources = splitList(p.resources ?? "");
  if (p.nodes !== undefined) out.nodes = parseNodes(p.nodes);
  if (p.strict !== undefined) out.strict = p.strict === "1";
  if (p.affinity !== undefined) out.affinity = p.affinity;
  if (p.disable !== undefined) out.enabled = p.disable !== "1";
  if (rule.comment !== undefined) out.comment = rule.comment;
  return out;
}
