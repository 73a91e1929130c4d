// Reads YAML while keeping where each key and value was written, so that every problem can be
// reported as file:line:column. A file may hold several documents (`---`).
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { Alias, Document, Node } from "yaml";
import type { SpecIssue, SpecPath } from "./errors.js";
import { MAX_ALIAS_COUNT, MAX_DOCUMENTS, MAX_NESTING_DEPTH, MAX_SPEC_BYTES, tooLargeMessage } from "./limits.js";
import type { SourceLocation } from "./model.js";
import { LineStarts } from "./line-starts.js";
import { type FastNode, fastOffset, parseFastYaml } from "../../util/yaml-fast/reader.js";

let library: typeof Yaml | undefined;

/**
 * The `yaml` library, loaded on first use: a spec the fast path reads never needs it, and
 * loading its modules was a noticeable part of `validate`'s start-up. (Under Node, `import` and
 * `require` of it give the same CommonJS module.)
 */
function yamlLibrary(): typeof Yaml {
  library ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return library;
}

export interface YamlDocument {
  /** The document as plain data (maps, arrays, strings, numbers, booleans, null). */
  value: unknown;
  /**
   * Where the node at `path` was written: its key (`"key"`, for "unknown key" problems) or its
   * value. A path that does not exist resolves to the deepest part that does.
   */
  locate(path: SpecPath, part?: "key" | "value"): SourceLocation;
}

export interface ParsedYaml {
  documents: YamlDocument[];
  /** Syntax problems (bad indentation, duplicate keys, tabs ...). */
  issues: SpecIssue[];
}

export function parseYaml(text: string, file: string): ParsedYaml {
  // Checked before parsing: the size is what makes a hostile file slow.
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_SPEC_BYTES) {
    return { documents: [], issues: [{ location: { file, line: 1, column: 1 }, path: [], message: tooLargeMessage(bytes) }] };
  }
  return parseFast(text, file) ?? parseWithLibrary(text, file);
}

/**
 * Specs in the common subset of YAML (src/util/yaml-fast/reader.ts), read in one pass; undefined for anything
 * else. Line and column are counted as the library's LineCounter counts them.
 */
function parseFast(text: string, file: string): ParsedYaml | undefined {
  const fast = parseFastYaml(text, RECORD_LEVELS);
  if (!fast) return undefined;
  let lines: LineStarts | undefined;
  const at = (offset: number): SourceLocation => {
    lines ??= new LineStarts(text);
    const { line, col } = lines.linePos(offset);
    return { file, line, column: col };
  };
  // Deeper paths (a problem inside a VM's disks ...) read the file again, keeping every position.
  let everyPosition: FastNode | undefined;
  const rootFor = (path: SpecPath): FastNode => {
    if (path.length <= RECORD_LEVELS + 1) return fast.root;
    everyPosition ??= (parseFastYaml(text) ?? unreachable()).root;
    return everyPosition;
  };
  return { documents: [{ value: fast.value, locate: (path, part = "value") => at(fastOffset(rootFor(path), path, part)) }], issues: [] };
}

/**
 * Positions kept on the first read: the root, its sections and their entries (a VM, a
 * connection, an ACL entry ...) and each entry's fields, which is all a valid spec asks for.
 */
const RECORD_LEVELS = 2;

function unreachable(): never {
  throw new Error("the fast YAML reader refused a text it had read");
}

/** Any YAML, read by the `yaml` library: the reference, and the words of every syntax error. */
export function parseWithLibrary(text: string, file: string): ParsedYaml {
  const { LineCounter, parseAllDocuments } = yamlLibrary();
  const lineCounter = new LineCounter();
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const issues: SpecIssue[] = [];
  const documents: YamlDocument[] = [];
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  for (const [index, doc] of docs.entries()) {
    if (index === MAX_DOCUMENTS) {
      issues.push({
        location: at(doc.range[0]),
        path: [],
        message: `more than ${MAX_DOCUMENTS} YAML documents (---) in one file; split the file`,
      });
      break;
    }
    const documentStart = doc.range[0];
    const root = doc.contents;
    const problems: SpecIssue[] = doc.errors.map((error) => ({
      location: at(error.pos[0]),
      path: [],
      message: `YAML: ${yamlMessage(error.message)}`,
    }));
    if (problems.length === 0) problems.push(...structureIssues(doc, root, at));
    issues.push(...problems);
    documents.push({
      value: problems.length > 0 ? undefined : toPlainData(doc, root, at, issues),
      locate: (path, part = "value") => at(findOffset(root, path, part) ?? documentStart),
    });
  }
  return { documents, issues };
}

/** Nesting deeper than MAX_NESTING_DEPTH, and aliases with no anchor before them. */
function structureIssues(doc: Document, root: Node | null, at: (offset: number) => SourceLocation): SpecIssue[] {
  const issues: SpecIssue[] = [];
  const { deepest, aliases } = inspect(root);
  if (deepest) {
    issues.push({
      location: at(rangeStart(deepest) ?? 0),
      path: [],
      message: `YAML: nested more than ${MAX_NESTING_DEPTH} levels deep; a spec needs far fewer`,
    });
  }
  for (const alias of aliases) {
    if (alias.resolve(doc) !== undefined) continue;
    const name = alias.source;
    issues.push({
      location: at(rangeStart(alias) ?? 0),
      path: [],
      message: `YAML: alias *${name} has no anchor &${name} before it; define the anchor first`,
    });
  }
  return issues;
}

/** The document as plain data; undefined (with an issue) when the yaml library cannot build it. */
function toPlainData(doc: Document, root: Node | null, at: (offset: number) => SourceLocation, issues: SpecIssue[]): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    const { aliases, merges } = inspect(root);
    if (/alias count/i.test(err.message)) {
      issues.push({
        location: at(rangeStart(aliases[0]) ?? 0),
        path: [],
        message:
          "YAML: aliases (*name) copy more data than pvectl accepts (an alias of an alias of ... grows exponentially); write the values out or reuse less",
      });
    } else {
      // e.g. `<<: 5` ("Merge sources must be maps or map aliases"): point at the merge key.
      const near = /merge/i.test(err.message) ? merges[0] : aliases[0];
      issues.push({ location: at(rangeStart(near) ?? 0), path: [], message: `YAML: ${yamlMessage(err.message)}` });
    }
    return undefined;
  }
}

/** Walks the node tree without recursion (its depth is what is being checked). */
function inspect(root: Node | null): { deepest?: Node; aliases: Alias[]; merges: Node[] } {
  const { isAlias, isMap, isPair, isSeq } = yamlLibrary();
  const aliases: Alias[] = [];
  const merges: Node[] = [];
  const stack: Array<[unknown, number]> = [[root, 0]];
  let deepest: Node | undefined;
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isAlias(node)) aliases.push(node);
    if (isPair(node)) {
      if (isMergeKey(node.key)) merges.push(node.key as Node);
      stack.push([node.value, depth], [node.key, depth]);
    } else if (isMap(node) || isSeq(node)) {
      if (depth >= MAX_NESTING_DEPTH) {
        deepest ??= node;
        continue;
      }
      for (let i = node.items.length - 1; i >= 0; i--) stack.push([node.items[i], depth + 1]);
    }
  }
  const byPosition = (a: Node, b: Node): number => (rangeStart(a) ?? 0) - (rangeStart(b) ?? 0);
  aliases.sort(byPosition);
  merges.sort(byPosition);
  return deepest ? { deepest, aliases, merges } : { aliases, merges };
}

// The yaml library's messages end with position details we already print in front.
function yamlMessage(message: string): string {
  // The parser recurses per level: a deep enough file overflows the stack before our own check.
  if (/call stack/i.test(message)) return `nested too deeply to read (pvectl accepts at most ${MAX_NESTING_DEPTH} levels)`;
  return message.replace(/\s+at line \d+, column \d+.*$/s, "").trim();
}

function findOffset(root: Node | null, path: SpecPath, part: "key" | "value"): number | undefined {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  let node: unknown = root;
  let offset = rangeStart(root);
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step));
      if (!pair) return offset;
      if (last && part === "key") return rangeStart(pair.key as Node) ?? offset;
      node = pair.value;
      // `key:` with nothing after it has no value node: point at the key.
      offset = rangeStart(node as Node | null) ?? rangeStart(pair.key as Node) ?? offset;
    } else if (isSeq(node) && typeof step === "number") {
      node = node.items[step];
      if (node === undefined) return offset;
      offset = rangeStart(node as Node) ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

/** `<<`; with merges on, the yaml library keeps its value as a symbol. */
function isMergeKey(key: unknown): boolean {
  if (!yamlLibrary().isScalar(key)) return false;
  const value = key.value;
  return value === "<<" || (typeof value === "symbol" && value.description === "<<");
}

function rangeStart(node: Node | null | undefined): number | undefined {
  return node && "range" in node && Array.isArray(node.range) ? node.range[0] : undefined;
}
