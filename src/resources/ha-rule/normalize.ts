// HA rule values in the one form PVE writes them (PVE::HA::Rules encode_value): resources as a
// sorted comma list of service ids, nodes sorted by name with `:priority` only when it is not 0,
// flags as 0/1. Both the spec's values and the live ones go through here, so equal rules compare
// equal however they were written.
import { splitList } from "../../pve/index.js";

/** Keys whose default PVE applies when a rule does not set them. */
const DEFAULTS: Record<string, string> = { strict: "0", disable: "0" };

export function ruleDefault(key: string): string | undefined {
  return DEFAULTS[key];
}

export function normalizeResources(sids: string[]): string {
  return [...new Set(sids)].sort().join(",");
}

/** `{ pve1: 2, pve2: 0 }` → `pve1:2,pve2`. */
export function normalizeNodes(nodes: Record<string, number>): string {
  return Object.keys(nodes)
    .sort()
    .map((node) => (nodes[node] ? `${node}:${nodes[node]}` : node))
    .join(",");
}

/** `pve2,pve1:2` → `{ pve1: 2, pve2: 0 }`. */
export function parseNodes(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of splitList(text)) {
    const [node, priority] = entry.split(":") as [string, string | undefined];
    out[node] = Number(priority ?? 0);
  }
  return out;
}

/** A live value in normalized form. */
export function normalizeRuleValue(key: string, value: unknown): string {
  if (key === "resources") return normalizeResources(splitList(String(value)));
  if (key === "nodes") return normalizeNodes(parseNodes(String(value)));
  if (typeof value === "boolean") return value ? "1" : "0";
  return String(value);
}
