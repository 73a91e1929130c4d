// The HA-rule family as the registry (resources/objects.ts) sees it: its spec section, how its
// rules are planned, read back, checked for privileges, shown and named.
import { type ApiReader, getClusterResources } from "../../api/endpoints/index.js";
import type { FamilyDefinition, FamilyPlans } from "../object-family.js";
import { planHaRules } from "./diff.js";
import type { DesiredHaRules } from "./model.js";
import { NoHaRulesError, readHaResourceIds, readHaRules } from "./read.js";
import { HA_RULE_SECTION } from "./section.js";
import type { HaRuleSpec } from "./spec-normalize.js";
import { createRuleStep, deleteRuleStep, updateRuleStep } from "./steps.js";
import { haRuleToSpec } from "./to-spec.js";

async function nodeNames(api: ApiReader): Promise<string[]> {
  return (await getClusterResources(api, { type: "node" })).flatMap((e) => (e.node ? [e.node] : [])).sort();
}

/** Each declared rule refused with why, when the cluster cannot hold rules at all. */
function unsupported(desired: DesiredHaRules, message: string): FamilyPlans {
  const objects = desired.rules.map((r) => ({
    kind: "ha-rule" as const,
    key: r.rule,
    exists: false,
    steps: [],
    errors: [message],
    warnings: [],
  }));
  return { objects, refused: [] };
}

async function planRules(api: ApiReader, desired: DesiredHaRules, adopt: boolean | undefined): Promise<FamilyPlans> {
  try {
    const [live, haResources, nodes] = await Promise.all([readHaRules(api), readHaResourceIds(api), nodeNames(api)]);
    return planHaRules(desired, live, { haResources, nodes, ...(adopt !== undefined ? { adopt } : {}) });
  } catch (err) {
    if (err instanceof NoHaRulesError) return unsupported(desired, err.message);
    throw err;
  }
}

export const HA_RULES: FamilyDefinition<"haRules", HaRuleSpec, DesiredHaRules, Array<Record<string, unknown>>> = {
  section: HA_RULE_SECTION,
  kinds: ["ha-rule"],
  desired: (entries) => ({ rules: entries.map((rule) => rule.desired) }),
  plan: (api, desired, options) => planRules(api, desired, options.adopt),
  landed: async (api, intent) => {
    const rule = (await readHaRules(api)).find((r) => r.rule === intent.key);
    if (intent.op === "object-create") return rule?.marked === true;
    if (intent.op === "object-delete") return rule === undefined;
    return false;
  },
  // The endpoints' own checks (Sys.Audit to read, Sys.Console on / to write) are all PVE checks.
  callNeeds: () => [],
  accessNeeds: {
    operation: "ha-rule",
    plural: "HA rules",
    reads: () => [{ path: "/", privilege: "Sys.Audit", user: "haRules" }],
    everyCall: (desired) =>
      desired.rules.flatMap((rule) =>
        [
          createRuleStep(rule.rule, rule.type, rule.params, rule.comment),
          updateRuleStep(rule.rule, rule.type, rule.params, [], false, rule.params.resources),
          deleteRuleStep(rule.rule),
        ].flatMap((step) => step.calls.map((call) => ({ object: `HA rule ${rule.rule}`, call }))),
      ),
  },
  show: {
    importFlag: {
      flag: "--ha-rules",
      description: "every HA rule of the cluster under haRules: (PVE 9; those pvectl did not create with adopt: true)",
    },
    declared: async (api, entries) => {
      const live = new Map((await readHaRules(api)).map((rule) => [rule.rule, rule]));
      const rules: Array<Record<string, unknown>> = [];
      const missing: string[] = [];
      for (const { rule } of entries) {
        const found = live.get(rule);
        if (found) rules.push(haRuleToSpec(found));
        else missing.push(`HA rule ${rule}: does not exist`);
      }
      return { section: rules, missing };
    },
    // A cluster before PVE 9 has no rules to import.
    everything: async (api) => {
      try {
        return (await readHaRules(api)).map(haRuleToSpec);
      } catch (err) {
        if (err instanceof NoHaRulesError) return [];
        throw err;
      }
    },
  },
  render: { nouns: { "ha-rule": "HA rule" } },
};
