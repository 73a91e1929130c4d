// Who owns a guest's node, decided from three facts: R, the node pvectl recorded when it last
// placed the guest (placement-record.ts; may be absent), S, the spec's node, and L, the node the
// guest is on. A spec whose node differs from the record changed: pvectl moves the guest. A
// guest found away from a spec that did not change was moved by someone else (HA, an operator):
// pvectl reports it and never moves it back. HA-managed guests are never moved by pvectl.

/** What the plan does about a guest's node. */
export type PlacementDecision =
  /** On its spec's node, and the record says so (or there is none): nothing. */
  | { kind: "in-place" }
  /** On its spec's node but the record names another (the spec followed a move): rewrite the record. */
  | { kind: "record" }
  /** The spec moved it (or `--placement spec`): migrate to S, then record S. */
  | { kind: "migrate" }
  /** Someone else moved it and the spec did not change: a warning, never a move back. `recorded`: a record exists. */
  | { kind: "moved-elsewhere"; recorded: boolean }
  /** The spec would move a guest HA manages: a plan error (HA owns its placement). */
  | { kind: "ha-owned" };

export interface PlacementFacts {
  /** L: the node the guest is on. */
  live: string;
  /** S: the spec's node. */
  spec: string;
  /** R: the recorded node; undefined when there is no (single) record. */
  record?: string;
  /** Some record tag exists (one or several). */
  recordPresent: boolean;
  /** HA manages the guest (an HA resource not `ignored`). */
  haManaged: boolean;
  /** `--placement spec`: every mismatch is taken as the spec's wish. */
  followSpec: boolean;
}

/** Node names as PVE compares tags: case-insensitively (a record tag may have been lower-cased). */
function same(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase();
}

export function decidePlacement(facts: PlacementFacts): PlacementDecision {
  const { live, spec, record } = facts;
  if (live === spec) return facts.recordPresent && !same(record, live) ? { kind: "record" } : { kind: "in-place" };
  const specChanged = facts.followSpec || (record !== undefined && !same(record, spec));
  if (!specChanged) return { kind: "moved-elsewhere", recorded: record !== undefined };
  return facts.haManaged ? { kind: "ha-owned" } : { kind: "migrate" };
}
