// Tag lists (`tags` of guests, format `pve-tag-list`): tags separated by `;`, `,` or
// whitespace on input; PVE stores them `;`-joined, de-duplicated and (by default) sorted.
import { PveFormatError } from "./errors.js";

// pve-common $PVE_TAG_RE, case-insensitive.
const TAG_RE = /^[a-z0-9_][a-z0-9_\-+.]*$/i;

export function isValidTag(tag: string): boolean {
  return TAG_RE.test(tag);
}

/** PVE's split of a list value (pve-common split_list): NUL-separated, else on `,` `;` and whitespace. */
export function splitList(text: string): string[] {
  if (text.includes("\0")) return text.split("\0");
  return text
    .replace(/[,;]/g, " ")
    .trim()
    .split(/\s+/)
    .filter((part) => part !== "");
}

/** Splits a tag list and checks each tag; throws with PVE's message on the first bad tag. */
export function parseTags(text: string | string[] | undefined): string[] {
  if (text === undefined) return [];
  const tags = Array.isArray(text) ? text.flatMap(splitList) : splitList(text);
  for (const tag of tags) {
    if (!isValidTag(tag)) {
      throw new PveFormatError(
        "tag",
        tag,
        "invalid characters in tag",
        "Tags may contain letters, digits and _ - + . and must not start with - + or .",
      );
    }
  }
  return tags;
}

export interface TagNormalisation {
  /** datacenter.cfg `tag-style: case-sensitive=1`; default: tags differing only in case are the same tag. */
  caseSensitive?: boolean;
  /** datacenter.cfg `tag-style: ordering=config` keeps the given order; default sorts. */
  ordering?: "alphabetical" | "config";
}

/** The tags as PVE keeps them: first spelling of each tag wins, duplicates dropped, sorted unless told otherwise. */
export function normaliseTags(tags: string[] | string, options: TagNormalisation = {}): string[] {
  const list = typeof tags === "string" ? parseTags(tags) : tags;
  const key = (tag: string): string => (options.caseSensitive ? tag : tag.toLowerCase());
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const tag of list) {
    if (seen.has(key(tag))) continue;
    seen.add(key(tag));
    unique.push(tag);
  }
  if (options.ordering === "config") return unique;
  return unique.sort((a, b) => compareStrings(key(a), key(b)) || compareStrings(a, b));
}

/** The stored form: `;`-joined. */
export function printTags(tags: string[]): string {
  return tags.join(";");
}

/** True when two tag lists name the same set of tags (what a diff should compare). */
export function sameTags(a: string[] | string, b: string[] | string, options: TagNormalisation = {}): boolean {
  const left = normaliseTags(a, { ...options, ordering: "alphabetical" });
  const right = normaliseTags(b, { ...options, ordering: "alphabetical" });
  const key = (tag: string): string => (options.caseSensitive ? tag : tag.toLowerCase());
  return left.length === right.length && left.every((tag, i) => key(tag) === key(right[i] as string));
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
