// The `haRules:` section of a spec file: a list of rules, each shape-checked on its own (a rule
// with a problem does not hide its siblings'), normalised, then merged across files. Written
// (even empty), it manages pvectl's rules; left out, HA rules are not managed.
import { z } from "zod";
import type { ObjectSection } from "../object-family.js";
import { mergeKeyedEntries } from "../spec-section/keyed-merge.js";
import { type HaRuleSpec, normalizeHaRule } from "./spec-normalize.js";
import { haRuleSchema } from "./spec-schema.js";

let entrySchema: ReturnType<typeof haRuleSchema> | undefined;
const ruleSchema = () => (entrySchema ??= haRuleSchema());

export const HA_RULE_SECTION: ObjectSection<"haRules", HaRuleSpec> = {
  key: "haRules",
  schema: () =>
    z
      .array(ruleSchema())
      .optional()
      .describe("PVE 9 HA rules (/cluster/ha/rules). Written (even empty): pvectl's rules not listed are deleted; left out: not managed."),
  read: ({ raw, hasIssueUnder, locate, sink }) => {
    if (!Array.isArray(raw)) return undefined;
    const rules: HaRuleSpec[] = [];
    raw.forEach((entry, index) => {
      const path = ["haRules", index];
      if (hasIssueUnder(path)) return;
      const checked = ruleSchema().safeParse(entry);
      if (!checked.success) return;
      rules.push(normalizeHaRule(checked.data, path, locate(path), sink));
    });
    return rules;
  },
  merge: (rules, names, issues) =>
    mergeKeyedEntries(
      {
        section: "haRules",
        label: (r) => `HA rule ${r.rule}`,
        key: (r) => r.rule,
        keyField: "rule",
        keyNoun: "HA rule id",
        unique: "a rule id names one rule of a cluster",
      },
      rules,
      names,
      issues,
    ),
};
