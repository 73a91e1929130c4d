// A fast reader for the YAML that specs are written in: block maps and lists, one-line flow
// maps and lists, plain and one-line quoted scalars, comments. The `yaml` library builds a
// concrete syntax tree through generators for every token, which made reading a 3,000-VM spec
// most of `validate`'s time; this reads the same subset in one pass and keeps only what
// messages need (where each key and value starts).
//
// It never guesses: anything outside the subset (anchors, aliases, tags, block scalars,
// multi-line scalars, several documents, tabs, duplicate keys, `<<`, signed or non-decimal
// numbers, escapes ...) makes it give up, and the caller reads the file with the library,
// which also words every syntax error. test/sources/yaml-fast.property.test.ts checks that
// whatever it accepts, it reads exactly as the library does, positions included.
import { endOfLine, OUTSIDE_SUBSET, outside, readQuoted, resolvePlain, startsWithIndicator } from "./scalar.js";

/**
 * Where a collection was written and where its parts were; a scalar is just its start offset
 * (a number, not an object: a large spec has hundreds of thousands of them, and every object
 * kept is work for the garbage collector).
 */
export interface FastCollection {
  start: number;
  /** A map's keys, in order, and where each key was written; undefined for a list. */
  keys?: string[];
  keyStarts?: number[];
  /** The value of each key, or each item of a list. */
  children: FastNode[];
}

export type FastNode = FastCollection | number;

export interface FastYaml {
  value: unknown;
  root: FastNode;
}

interface Read {
  value: unknown;
  node: FastNode;
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const HASH = 0x23;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Deeper than this is left to the library (which also enforces the real limit). */
const MAX_DEPTH = 32;
/** The library refuses longer implicit keys. */
const MAX_KEY_LENGTH = 1024;
// Tabs, CR, BOM, control and line-separator characters, lone surrogates, and lines of `---`,
// `...` (documents): the library's rules for these are subtle, so it reads such files.
const NOT_IN_SUBSET = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]|^(?:---|\.\.\.)(?:[ \n]|$)/m;

/**
 * The document in `text`, or undefined when it is not in the subset. Where the parts of
 * collections nested deeper than `recordLevels` (the root is level 0) were written is not kept:
 * such a collection's node is its start, like a scalar's, so fastOffset answers only paths of
 * up to `recordLevels + 1` steps. (Keeping every position of a 3,000-VM spec was much of the
 * reader's garbage; a valid spec needs only where each entry starts.)
 */
export function parseFastYaml(text: string, recordLevels = Number.POSITIVE_INFINITY): FastYaml | undefined {
  if (NOT_IN_SUBSET.test(text)) return undefined;
  try {
    return new Reader(text, recordLevels).document();
  } catch (err) {
    if (err === OUTSIDE_SUBSET) return undefined;
    throw err;
  }
}

/** The offset `path` resolves to, as yaml-source's findOffset does on the library's nodes. */
export function fastOffset(root: FastNode, path: ReadonlyArray<string | number>, part: "key" | "value"): number {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    if (typeof node === "number") return node;
    const step = path[i] as string | number;
    let index: number;
    if (node.keys) {
      index = node.keys.indexOf(String(step));
      if (index >= 0 && i === path.length - 1 && part === "key") return node.keyStarts?.[index] ?? node.start;
    } else {
      index = typeof step === "number" ? step : -1;
    }
    const child = node.children[index];
    if (child === undefined) return node.start;
    node = child;
  }
  return typeof node === "number" ? node : node.start;
}

/**
 * Duplicates are errors the library words; `__proto__` and merge keys (`<<`) it treats specially.
 * `map` holds every key read so far (a `__proto__` never gets in).
 */
function isNewKey(map: Record<string, unknown>, key: string): boolean {
  return key !== "__proto__" && key !== "<<" && !Object.hasOwn(map, key);
}

function mapNode(start: number): FastCollection {
  return { start, keys: [], keyStarts: [], children: [] };
}

function addEntry(node: FastCollection, key: string, keyStart: number, child: FastNode): void {
  node.keys?.push(key);
  node.keyStarts?.push(keyStart);
  node.children.push(child);
}

class Reader {
  /** The current content line (blank and comment lines skipped): its start and indentation. */
  private lineStart = 0;
  private indent = 0;
  private hasContent = false;
  private depth = 0;
  /** Collections being read around the current position: 0 while reading the root. */
  private level = 0;

  constructor(
    private readonly text: string,
    private readonly recordLevels: number,
  ) {}

  document(): FastYaml {
    this.seekContent(0);
    if (!this.hasContent || this.indent !== 0) outside();
    const root = this.blockNode();
    if (this.hasContent) outside();
    return { value: root.value, root: root.node };
  }

  /** Moves to the first line at or after `from` with content; sets indent and hasContent. */
  private seekContent(from: number): void {
    const text = this.text;
    let at = from;
    while (at < text.length) {
      let i = at;
      while (text.charCodeAt(i) === SPACE) i++;
      const c = text.charCodeAt(i);
      if (c !== NEWLINE && c !== HASH && i < text.length) {
        this.lineStart = at;
        this.indent = i - at;
        this.hasContent = true;
        return;
      }
      at = endOfLine(text, i) + 1;
    }
    this.hasContent = false;
  }

  /** After a value at `at`: only spaces and a comment may follow on its line. Returns the next line's start. */
  private endLine(at: number): number {
    const text = this.text;
    let i = at;
    while (text.charCodeAt(i) === SPACE) i++;
    if (text[i] === "#" && i > at) i = endOfLine(text, i);
    if (i < text.length && text[i] !== "\n") outside();
    return i + 1;
  }

  private isDash(at: number): boolean {
    const next = this.text[at + 1];
    return this.text[at] === "-" && (next === " " || next === "\n" || next === undefined);
  }

  /** A map or list starting on the current line at its indentation. */
  private blockNode(): Read {
    if (++this.depth > MAX_DEPTH) outside();
    const at = this.lineStart + this.indent;
    const read = this.isDash(at) ? this.blockSeq(this.indent) : this.blockMap(this.indent, at);
    this.depth--;
    return read;
  }

  private blockMap(column: number, first: number): Read {
    const value: Record<string, unknown> = {};
    const node = this.level <= this.recordLevels ? mapNode(first) : undefined;
    this.level++;
    let at = first;
    for (;;) {
      const key = this.implicitKey(at) ?? outside();
      if (!isNewKey(value, key.text)) outside();
      const read = this.afterIndicator(key.colon + 1, column, true);
      value[key.text] = read.value;
      if (node) addEntry(node, key.text, at, read.node);
      if (!this.hasContent || this.indent < column) break;
      if (this.indent > column) outside();
      at = this.lineStart + column;
    }
    this.level--;
    return { value, node: node ?? first };
  }

  private blockSeq(column: number): Read {
    const value: unknown[] = [];
    const start = this.lineStart + column;
    const children: FastNode[] | undefined = this.level <= this.recordLevels ? [] : undefined;
    this.level++;
    for (;;) {
      const read = this.afterIndicator(this.lineStart + column + 1, column, false);
      value.push(read.value);
      children?.push(read.node);
      if (!this.hasContent || this.indent < column) break;
      if (this.indent > column) outside();
      // A key at the list's own indentation continues the map the list is a value of.
      if (!this.isDash(this.lineStart + column)) break;
    }
    this.level--;
    return { value, node: children ? { start, children } : start };
  }

  /** The value after `key:` or `- ` (at `at`), inline or on the lines below. */
  private afterIndicator(at: number, column: number, inMap: boolean): Read {
    const text = this.text;
    let i = at;
    while (text.charCodeAt(i) === SPACE) i++;
    if (i >= text.length || text[i] === "\n" || text[i] === "#") {
      this.seekContent(this.endLine(at));
      if (this.hasContent && this.indent > column) return this.blockNode();
      // `key:` followed by a list at the key's own indentation.
      if (inMap && this.hasContent && this.indent === column && this.isDash(this.lineStart + column)) return this.blockSeq(column);
      return { value: null, node: i };
    }
    if (!inMap) {
      if (this.isDash(i)) outside();
      // `- name: x`: a map whose keys line up with `name`.
      if (this.implicitKey(i)) return this.nested(() => this.blockMap(i - this.lineStart, i));
    }
    const read = this.inline(i);
    // A deeper line below would continue the scalar: blockMap and blockSeq refuse it.
    this.seekContent(this.endLine(read.end));
    return read;
  }

  private nested(read: () => Read): Read {
    if (++this.depth > MAX_DEPTH) outside();
    const result = read();
    this.depth--;
    return result;
  }

  /** `key:` at `at` (plain or quoted, on one line), or undefined when the line holds no key. */
  private implicitKey(at: number): { text: string; colon: number } | undefined {
    const text = this.text;
    const c = text[at];
    let key: string;
    let colon: number;
    if (c === '"' || c === "'") {
      const quoted = readQuoted(text, at);
      if (text[quoted.end] !== ":") return undefined;
      key = quoted.value;
      colon = quoted.end;
    } else {
      if (startsWithIndicator(text, at)) return undefined;
      colon = at;
      // Character codes, not one-character strings: this loop sees most of the file.
      for (let c = text.charCodeAt(colon); ; c = text.charCodeAt(++colon)) {
        if (Number.isNaN(c) || c === NEWLINE || (c === HASH && text.charCodeAt(colon - 1) === SPACE)) return undefined;
        if (c === COLON) {
          const next = text.charCodeAt(colon + 1);
          if (next === SPACE || next === NEWLINE || Number.isNaN(next)) break;
        }
      }
      key = text.slice(at, colon);
      if (key.endsWith(" ") || typeof resolvePlain(key) !== "string") outside();
    }
    if (colon - at > MAX_KEY_LENGTH) outside();
    const next = text[colon + 1];
    if (next !== " " && next !== "\n" && next !== undefined) return undefined;
    return { text: key, colon };
  }

  /** A scalar or a one-line flow collection starting at `at`; `end` is the offset after it. */
  private inline(at: number): Read & { end: number } {
    const text = this.text;
    const c = text[at];
    if (c === "[" || c === "{") return this.flow(at);
    if (c === '"' || c === "'") {
      const quoted = readQuoted(text, at);
      return { value: quoted.value, node: at, end: quoted.end };
    }
    if (startsWithIndicator(text, at)) outside();
    let end = at;
    for (
      let c = text.charCodeAt(end);
      !Number.isNaN(c) && c !== NEWLINE && !(c === HASH && text.charCodeAt(end - 1) === SPACE);
      c = text.charCodeAt(end)
    )
      end++;
    while (text.charCodeAt(end - 1) === SPACE) end--;
    const scalar = text.slice(at, end);
    // `a: b: c` and `a: b:` are errors the library words.
    if (scalar.includes(": ") || scalar.endsWith(":")) outside();
    return { value: resolvePlain(scalar), node: at, end };
  }

  // Flow collections: one line, `key: value` pairs in maps, no empty or trailing entries.
  private flow(at: number): Read & { end: number } {
    if (++this.depth > MAX_DEPTH) outside();
    const read = this.text[at] === "[" ? this.flowSeq(at) : this.flowMap(at);
    this.depth--;
    return read;
  }

  private flowSeq(at: number): Read & { end: number } {
    const value: unknown[] = [];
    const children: FastNode[] | undefined = this.level <= this.recordLevels ? [] : undefined;
    this.level++;
    const end = this.flowEntries(at + 1, "]", (i) => {
      const item = this.flowItem(i);
      value.push(item.value);
      children?.push(item.node);
      return item.end;
    });
    this.level--;
    return { value, node: children ? { start: at, children } : at, end };
  }

  private flowMap(at: number): Read & { end: number } {
    const value: Record<string, unknown> = {};
    const node = this.level <= this.recordLevels ? mapNode(at) : undefined;
    this.level++;
    const end = this.flowEntries(at + 1, "}", (i) => {
      const key = this.flowKey(i);
      if (!isNewKey(value, key.text)) outside();
      const item = this.flowItem(this.skipSpaces(key.colon + 2));
      value[key.text] = item.value;
      if (node) addEntry(node, key.text, i, item.node);
      return item.end;
    });
    this.level--;
    return { value, node: node ?? at, end };
  }

  /** Entries separated by `, ` up to `close`; returns the offset after `close`. */
  private flowEntries(from: number, close: string, entry: (at: number) => number): number {
    const text = this.text;
    let i = this.skipSpaces(from);
    if (text[i] === close) return i + 1;
    for (;;) {
      i = this.skipSpaces(entry(i));
      if (text[i] === close) return i + 1;
      if (text[i] !== ",") outside();
      i = this.skipSpaces(i + 1);
      if (text[i] === close || text[i] === ",") outside();
    }
  }

  private flowKey(at: number): { text: string; colon: number } {
    const text = this.text;
    if (text[at] === '"' || text[at] === "'") {
      const quoted = readQuoted(text, at);
      if (text[quoted.end] !== ":" || text[quoted.end + 1] !== " ") outside();
      return { text: quoted.value, colon: quoted.end };
    }
    const end = this.plainFlowEnd(at);
    if (text[end] !== ":" || text[end + 1] !== " ") outside();
    const key = text.slice(at, end);
    if (key.endsWith(" ") || typeof resolvePlain(key) !== "string") outside();
    return { text: key, colon: end };
  }

  private flowItem(at: number): Read & { end: number } {
    const text = this.text;
    const c = text[at];
    if (c === "[" || c === "{") return this.flow(at);
    if (c === '"' || c === "'") {
      const quoted = readQuoted(text, at);
      // `["a": 1]` is a one-pair map inside the list.
      if (text[this.skipSpaces(quoted.end)] === ":") outside();
      return { value: quoted.value, node: at, end: quoted.end };
    }
    const end = this.plainFlowEnd(at);
    if (text[end] === ":") outside();
    let last = end;
    while (text.charCodeAt(last - 1) === SPACE) last--;
    return { value: resolvePlain(text.slice(at, last)), node: at, end: last };
  }

  /** Where a plain scalar inside a flow collection stops: at `,`, `]`, `}` or `:`. */
  private plainFlowEnd(at: number): number {
    const text = this.text;
    if (startsWithIndicator(text, at)) outside();
    let i = at;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE || c === COLON) break;
      // A line break (the collection goes on below), a comment or a nested collection.
      if (Number.isNaN(c) || c === NEWLINE || c === HASH || c === OPEN_BRACKET || c === OPEN_BRACE) outside();
      i++;
    }
    if (i === at) outside();
    return i;
  }

  private skipSpaces(at: number): number {
    let i = at;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }
}
