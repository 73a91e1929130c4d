// PVE 9's HA rules (/cluster/ha/rules, pve-ha-manager's rules.cfg) as desired state. A rule is
// keyed by its id; pvectl marks the rules it manages at the end of their comment, as it marks
// backup jobs. Values are compared in the one form PVE writes them (normalize.ts).

export { markedComment, OBJECT_MARKER as HA_RULE_MARKER, splitComment } from "../object-marker.js";

export const HA_RULE_TYPES = ["node-affinity", "resource-affinity"] as const;
export type HaRuleType = (typeof HA_RULE_TYPES)[number];

/** A rule as the spec wants it: only the keys the spec names are compared and written. */
export interface DesiredHaRule {
  rule: string;
  type: HaRuleType;
  /** PVE keys the spec sets (resources, nodes, strict, affinity, disable), normalized. */
  params: Record<string, string>;
  /** The user's comment text (without the marker); undefined: not managed. */
  comment?: string;
  /** Manage a rule of that id that pvectl did not create (it gets the marker). */
  adopt: boolean;
  /** Where the spec declares it (`file:line`), for messages. */
  where?: string;
}

/**
 * The spec's HA rules on one cluster. Present (even empty) when a spec file writes `haRules:`:
 * then rules with pvectl's marker that the spec does not list are deleted. Absent: not managed.
 */
export interface DesiredHaRules {
  rules: DesiredHaRule[];
}

/** A rule as read from /cluster/ha/rules. */
export interface LiveHaRule {
  rule: string;
  type: string;
  params: Record<string, string>;
  comment?: string;
  marked: boolean;
  /** Why the HA manager does not apply it (PVE's `errors`), when it says so. */
  errors?: string;
}
