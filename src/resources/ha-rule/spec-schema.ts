// The shape of one `haRules:` entry as a user writes it (strict: unknown keys are errors). Which
// keys go with which rule type is checked in spec-normalize.ts, with the field it is about.
import { z } from "zod";
import { CONNECTION_NAME, NODE_NAME, pattern } from "../spec-section/zod-values.js";
import { HA_RULE_TYPES } from "./model.js";

/** PVE's `pve-configid` (a rule's id). */
const RULE_ID = /^[a-z][a-z0-9_-]+$/i;
/** pve-ha-manager's resource id: `vm:<vmid>` or `ct:<vmid>`. */
const SERVICE_ID = /^(vm|ct):[1-9][0-9]{2,8}$/;

export function haRuleSchema() {
  return z
    .strictObject({
      rule: pattern(RULE_ID, "a rule id: a letter, then letters, digits, '-' or '_'")
        .max(64)
        .describe("The rule's id (PVE's), the key pvectl finds it by."),
      connection: pattern(CONNECTION_NAME, "a connection name").optional(),
      adopt: z.boolean().optional().describe("Manage an existing rule of this id that pvectl did not create."),
      type: z.enum(HA_RULE_TYPES).describe("node-affinity: where its resources run; resource-affinity: together or apart."),
      resources: z
        .array(pattern(SERVICE_ID, "an HA resource id: vm:<vmid> or ct:<vmid>"))
        .min(1)
        .describe("The HA resources it applies to (`vm:100`, `ct:200`); each must be an HA resource."),
      nodes: z
        .record(pattern(NODE_NAME, "a node name"), z.number().int().min(0).max(1000))
        .optional()
        .describe("node-affinity: the nodes and their priority (higher first; 0 is the lowest), e.g. { pve1: 2, pve2: 1 }."),
      strict: z.boolean().optional().describe("node-affinity: run only on these nodes (stopped when none is available)."),
      affinity: z.enum(["positive", "negative"]).optional().describe("resource-affinity: keep together (positive) or apart (negative)."),
      enabled: z.boolean().optional().describe("false: the rule is kept but HA does not apply it (PVE's `disable`)."),
      comment: z.string().max(4000).optional().describe("Your text; pvectl keeps its marker after it."),
    })
    .meta({ id: "HaRule", description: "A PVE 9 HA rule (/cluster/ha/rules) as desired state." });
}

export type RawHaRule = z.output<ReturnType<typeof haRuleSchema>>;
