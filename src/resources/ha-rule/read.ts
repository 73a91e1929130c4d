// HA rules as the cluster has them (GET /cluster/ha/rules), in the diff's normalized form, and
// the HA resources they may name. A cluster before PVE 9 has no rules endpoint (HA groups
// instead): that is said, not guessed around.
import { type ApiReader, getHaResources, getHaRules, type HaRuleEntry } from "../../api/endpoints/index.js";
import { PveError } from "../../api/index.js";
import type { LiveHaRule } from "./model.js";
import { splitComment } from "./model.js";
import { normalizeRuleValue } from "./normalize.js";

/** What PVE adds to a listed rule that is not one of its options. */
const NOT_OPTIONS = new Set(["rule", "type", "comment", "digest", "order", "errors"]);

export function liveRule(entry: HaRuleEntry): LiveHaRule {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (NOT_OPTIONS.has(key) || value === undefined || value === null) continue;
    params[key] = normalizeRuleValue(key, value);
  }
  const comment = splitComment(typeof entry.comment === "string" ? entry.comment : undefined);
  const errors = entry.errors === undefined ? undefined : JSON.stringify(entry.errors);
  return {
    rule: entry.rule,
    type: String(entry.type ?? ""),
    params,
    ...(comment.text !== undefined ? { comment: comment.text } : {}),
    marked: comment.marked,
    ...(errors !== undefined ? { errors } : {}),
  };
}

/** Thrown when the cluster has no HA rules endpoint (PVE 8 and before: HA groups). */
export class NoHaRulesError extends Error {
  constructor() {
    super("this cluster has no HA rules (/cluster/ha/rules): PVE before 9 places HA resources with HA groups; haRules needs PVE 9");
  }
}

export async function readHaRules(api: ApiReader): Promise<LiveHaRule[]> {
  try {
    return (await getHaRules(api)).map(liveRule);
  } catch (err) {
    if (err instanceof PveError && (err.status === 501 || err.status === 404)) throw new NoHaRulesError();
    throw err;
  }
}

/** The service ids (`vm:100`) the HA manager protects: a rule may name only these. */
export async function readHaResourceIds(api: ApiReader): Promise<Set<string>> {
  return new Set((await getHaResources(api)).map((r) => r.sid));
}
