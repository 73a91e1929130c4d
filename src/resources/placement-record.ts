// pvectl's record of the node it placed a guest on: the tag `pvectl-node.<node>` (PVE's tag
// syntax, `[a-z0-9_][a-z0-9_\-+.]*`, allows the dot and every node name). Written wherever pvectl
// places a guest (create, clone, after a migration), it tells a changed spec (the record differs
// from the spec's node) from someone else's move (the record still says the spec's node). Like
// the ownership tag it is pvectl's: never compared with the spec's `tags:`, never imported.
import { printTags } from "./formats.js";
import { OWNERSHIP_TAG } from "./ownership.js";

export const PLACEMENT_TAG_PREFIX = "pvectl-node.";

/** The record for `node`. */
export function placementTag(node: string): string {
  return `${PLACEMENT_TAG_PREFIX}${node}`;
}

/** PVE compares tags case-insensitively: so does this. */
export function isPlacementTag(tag: string): boolean {
  return tag.toLowerCase().startsWith(PLACEMENT_TAG_PREFIX);
}

/** A tag pvectl writes for itself (ownership, placement record), never one of the spec's. */
export function isPvectlTag(tag: string): boolean {
  return tag.toLowerCase() === OWNERSHIP_TAG || isPlacementTag(tag);
}

/** The spec's share of a guest's tags: without pvectl's own. */
export function userTags(tags: string[]): string[] {
  return tags.filter((t) => !isPvectlTag(t));
}

/** What a guest's tags record of its placement. */
export interface PlacementRecord {
  /** The recorded node; undefined when there is none, or several that disagree (treated as none). */
  node?: string;
  /** Some placement tag is there (one or more). */
  present: boolean;
}

export function placementRecord(tags: string[]): PlacementRecord {
  const nodes = [...new Set(tags.filter(isPlacementTag).map((t) => t.slice(PLACEMENT_TAG_PREFIX.length)))];
  return { present: nodes.length > 0, ...(nodes.length === 1 ? { node: nodes[0]! } : {}) };
}

/** Whether the tags record exactly `node` (one placement tag, naming it). */
export function recordsNode(tags: string[], node: string): boolean {
  const records = tags.filter(isPlacementTag);
  return records.length === 1 && records[0]!.toLowerCase() === placementTag(node).toLowerCase();
}

/** `tags` with their placement record replaced by the one for `node`. */
export function withPlacementRecord(tags: string[], node: string): string[] {
  return [...tags.filter((t) => !isPlacementTag(t)), placementTag(node)];
}

/** The tags a new guest is created with: the spec's, the ownership tag and the record of its node (PVE's stored form). */
export function createdTags(specTags: string[] | undefined, node: string): string {
  return printTags([...(specTags ?? []), OWNERSHIP_TAG, placementTag(node)]);
}
