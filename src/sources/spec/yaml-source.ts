// Reads YAML while keeping where each key and value was written, so that every problem can be
// reported as file:line:column. A file may hold several documents (`---`).
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from "yaml";
import type { SpecIssue, SpecPath } from "./errors.js";
import type { SourceLocation } from "./model.js";

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
  const lineCounter = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const issues: SpecIssue[] = [];
  const documents: YamlDocument[] = [];
  for (const doc of docs) {
    for (const error of doc.errors) {
      issues.push({ location: at(error.pos[0]), path: [], message: `YAML: ${yamlMessage(error.message)}` });
    }
    const documentStart = doc.range[0];
    const root = doc.contents;
    documents.push({
      value: doc.errors.length > 0 ? undefined : doc.toJS({ maxAliasCount: 1000 }),
      locate: (path, part = "value") => at(findOffset(root, path, part) ?? documentStart),
    });
  }
  return { documents, issues };
}

// The yaml library's messages end with position details we already print in front.
function yamlMessage(message: string): string {
  return message.replace(/\s+at line \d+, column \d+.*$/s, "").trim();
}

function findOffset(root: Node | null, path: SpecPath, part: "key" | "value"): number | undefined {
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

function rangeStart(node: Node | null | undefined): number | undefined {
  return node && "range" in node && Array.isArray(node.range) ? node.range[0] : undefined;
}
