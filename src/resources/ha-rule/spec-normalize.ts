// One `haRules:` entry, shape-checked by spec-schema.ts, into the rule the engine compares:
// PVE's keys for the fields the entry writes (and only those), and which fields go with which
// rule type (pve-ha-manager's plugins: nodes and strict for node-affinity, affinity for
// resource-affinity), each problem reported at its field.
import type { IssueSink, SourceLocation, SpecPath } from "../spec-section/issues.js";
import type { DesiredHaRule } from "./model.js";
import { normalizeNodes, normalizeResources } from "./normalize.js";
import type { RawHaRule } from "./spec-schema.js";

/** A spec's HA rule: what the engine compares, and where it was written. */
export interface HaRuleSpec {
  rule: string;
  connection?: string;
  source: SourceLocation;
  desired: DesiredHaRule;
}

function typeProblems(raw: RawHaRule, path: SpecPath, sink: IssueSink): void {
  const only = (field: "nodes" | "strict" | "affinity", type: string) => {
    if (raw[field] !== undefined && raw.type !== type) sink.add([...path, field], `\`${field}\` goes with \`type: ${type}\` only`, "key");
  };
  only("nodes", "node-affinity");
  only("strict", "node-affinity");
  only("affinity", "resource-affinity");
  if (raw.type === "node-affinity" && (raw.nodes === undefined || Object.keys(raw.nodes).length === 0)) {
    sink.add([...path, "nodes"], "a node-affinity rule needs `nodes:` (node: priority), e.g. `nodes: { pve1: 2, pve2: 1 }`");
  }
  if (raw.type === "resource-affinity") {
    if (raw.affinity === undefined)
      sink.add([...path, "affinity"], "a resource-affinity rule needs `affinity: positive` (together) or `negative` (apart)");
    if (new Set(raw.resources).size < 2) sink.add([...path, "resources"], "a resource-affinity rule relates two or more resources");
  }
}

export function normalizeHaRule(raw: RawHaRule, path: SpecPath, source: SourceLocation, sink: IssueSink): HaRuleSpec {
  typeProblems(raw, path, sink);
  const params: Record<string, string> = { resources: normalizeResources(raw.resources) };
  if (raw.nodes !== undefined) params.nodes = normalizeNodes(raw.nodes);
  if (raw.strict !== undefined) params.strict = raw.strict ? "1" : "0";
  if (raw.affinity !== undefined) params.affinity = raw.affinity;
  if (raw.enabled !== undefined) params.disable = raw.enabled ? "0" : "1";
  const desired: DesiredHaRule = {
    rule: raw.rule,
    type: raw.type,
    params,
    ...(raw.comment !== undefined ? { comment: raw.comment.trim() } : {}),
    adopt: raw.adopt ?? false,
    where: `${source.file}:${source.line}`,
  };
  return { rule: raw.rule, ...(raw.connection !== undefined ? { connection: raw.connection } : {}), source, desired };
}
