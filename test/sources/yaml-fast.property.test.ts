// The fast YAML path (src/util/yaml-fast/reader.ts) must read every file it accepts exactly as
// the `yaml` library does: the same data (types included: `0o17`, `yes`, `~`, `1e3` ...) and the
// same file:line:column for every key and value a message can point at. Files outside its
// subset must fall back to the library. Checked on generated YAML in many layouts, on mutated
// copies of it (stray quotes, tabs, colons, anchors, document markers ...) and on the examples.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { articleVmYaml } from "../../bench/provision-spec.js";
import { fastOffset, parseFastYaml } from "../../src/util/yaml-fast/reader.js";
import { parseWithLibrary, parseYaml } from "../../src/sources/spec/yaml-source.js";

const SCALARS = [
  "web",
  "16G",
  "local-lvm",
  "local:iso/x.iso",
  "BC:24:11:00:00:01",
  "10.0.0.5/24",
  "a b",
  "a#b",
  "a # note",
  "x-y",
  "1",
  "0",
  "01",
  "0o17",
  "0o8",
  "0x1F",
  "-1",
  "+1",
  "1.5",
  "1.",
  ".5",
  "1e3",
  "1E-2",
  "-.inf",
  ".inf",
  ".NaN",
  ".nan",
  "~",
  "null",
  "Null",
  "NULL",
  "nul",
  "true",
  "True",
  "TRUE",
  "tRUE",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "y",
  "n",
  "2024-01-01",
  "12:30",
  "99999999999999999999",
  "'single'",
  "'it''s'",
  '"double"',
  '"a\\"b"',
  '"tab\\t"',
  "''",
  '""',
  "-",
  "- x",
  "-x",
  "?",
  "? x",
  ":",
  ":x",
  "a:",
  "a: b",
  "a:b",
  "@x",
  "`x",
  "%x",
  "&a x",
  "*a",
  "!!str 1",
  "!x y",
  "|",
  ">",
  "[a]",
  "{a: 1}",
  "[a, b]",
  "{}",
  "[]",
  "#x",
  "a\tb",
  "é",
  "日本",
  "\u00a0x",
];
const KEYS = [
  "name",
  "vmid",
  "disks",
  "scsi0",
  "size",
  "a b",
  "a#b",
  "x-defaults",
  "1",
  "true",
  "null",
  "~",
  "on",
  '"q"',
  "'s'",
  "'a b'",
  "<<",
  "__proto__",
  "key ",
  "-k",
  "a:b",
  "é",
];

type Tree =
  | { scalar: string; comment: boolean }
  | { map: Array<[string, Tree]>; flow: boolean; indent: number; compact: boolean; sameLevel: boolean }
  | { seq: Tree[]; flow: boolean; indent: number; compact: boolean; sameLevel: boolean };

const layout = { flow: fc.boolean(), indent: fc.integer({ min: 1, max: 4 }), compact: fc.boolean(), sameLevel: fc.boolean() };
const { tree } = fc.letrec<{ tree: Tree; scalar: Tree; map: Tree; seq: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("scalar"), tie("map"), tie("seq")),
  scalar: fc.record({ scalar: fc.constantFrom(...SCALARS), comment: fc.boolean() }),
  map: fc.record({ map: fc.array(fc.tuple(fc.constantFrom(...KEYS), tie("tree")), { maxLength: 4 }), ...layout }),
  seq: fc.record({ seq: fc.array(tie("tree"), { maxLength: 4 }), ...layout }),
}));

function isBlock(t: Tree): boolean {
  return !("scalar" in t) && !t.flow && ("map" in t ? t.map.length : t.seq.length) > 0;
}

function flowText(t: Tree): string {
  if ("scalar" in t) return t.scalar;
  if ("map" in t) return `{ ${t.map.map(([k, v]) => `${k}: ${flowText(v)}`).join(", ")} }`;
  return `[${t.seq.map(flowText).join(", ")}]`;
}

/** The lines of block collection `t` at column `col`. */
function blockLines(t: Tree, col: number): string[] {
  const pad = " ".repeat(col);
  const out: string[] = [];
  const inline = (v: Tree): string => ("scalar" in v ? `${v.scalar}${v.comment ? "  # note" : ""}` : flowText(v));
  if ("map" in t) {
    for (const [k, v] of t.map) {
      if (!isBlock(v)) out.push(`${pad}${k}: ${inline(v)}`);
      else {
        out.push(`${pad}${k}:`);
        const child = v as Exclude<Tree, { scalar: string }>;
        out.push(...blockLines(v, "seq" in child && child.sameLevel ? col : col + child.indent));
      }
    }
  } else if ("seq" in t) {
    for (const v of t.seq) {
      if (!isBlock(v)) out.push(`${pad}- ${inline(v)}`);
      else {
        const child = v as Exclude<Tree, { scalar: string }>;
        const inner = col + 1 + child.indent;
        const lines = blockLines(v, inner);
        if (child.compact) out.push(`${pad}-${" ".repeat(child.indent)}${(lines[0] ?? "").slice(inner)}`, ...lines.slice(1));
        else out.push(`${pad}-`, ...lines);
      }
    }
  }
  return out;
}

const document = fc
  .tuple(tree, fc.array(fc.constantFrom("", "   ", "# c", "  # c", "      more words", "   - x"), { maxLength: 3 }), fc.nat())
  .map(([t, extras, seed]) => {
    const lines = isBlock(t) ? blockLines(t, 0) : [`k: ${flowText(t)}`];
    for (const [i, extra] of extras.entries()) lines.splice((seed + i * 7) % (lines.length + 1), 0, extra);
    return `${lines.join("\n")}\n`;
  });

const EDITS = [
  " ",
  "  ",
  "\n",
  "\n  ",
  "\n    x",
  "#",
  ":",
  "- ",
  "'",
  '"',
  "{",
  "}",
  "[",
  "]",
  ",",
  "&a ",
  "*a",
  "!",
  "|",
  ">",
  "%",
  "@",
  "\t",
  "\r",
  "~",
  "0",
  "---\n",
  "...\n",
  "<<: ",
];
const mutated = fc
  .tuple(document, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...EDITS), fc.boolean()), { minLength: 1, maxLength: 3 }))
  .map(([text, edits]) =>
    edits.reduce((t, [at, edit, remove]) => {
      const i = at % (t.length + 1);
      return remove ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + edit + t.slice(i);
    }, text),
  );

/** Every path into `value`, and one missing child of each collection. */
function pathsOf(
  value: unknown,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  out.push(path);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) pathsOf(item, [...path, i], out);
    out.push([...path, value.length], [...path, "x"]);
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out);
    out.push([...path, "missing"], [...path, 0]);
  }
  return out;
}

/** True when the fast path took `text`; then it must agree with the library in everything. */
function agreesWithLibrary(text: string): boolean {
  if (parseFastYaml(text) === undefined) return false;
  const fast = parseYaml(text, "t.yaml");
  const library = parseWithLibrary(text, "t.yaml");
  const show = JSON.stringify(text);
  assert.deepEqual(library.issues, [], `the fast path accepted what the library refuses: ${show}`);
  assert.equal(library.documents.length, 1, show);
  const [mine, theirs] = [fast.documents[0], library.documents[0]];
  assert.ok(mine && theirs);
  assert.deepStrictEqual(mine.value, theirs.value, show);
  for (const path of pathsOf(theirs.value)) {
    for (const part of ["key", "value"] as const)
      assert.deepEqual(mine.locate(path, part), theirs.locate(path, part), `${show} ${JSON.stringify(path)} ${part}`);
  }
  return true;
}

describe("fast YAML path", () => {
  it("reads generated YAML exactly as the yaml library does, or leaves it to the library", () => {
    let taken = 0;
    fc.assert(
      fc.property(document, (text) => {
        if (agreesWithLibrary(text)) taken++;
      }),
      { numRuns: 1500 },
    );
    // The property is only worth something if the fast path takes a fair share of the inputs.
    assert.ok(taken > 150, `the fast path took only ${taken} of 1500 generated documents`);
  });

  it("reads mutated YAML exactly as the library does, or leaves it to the library", () => {
    fc.assert(
      fc.property(mutated, (text) => void agreesWithLibrary(text)),
      { numRuns: 1500 },
    );
  });

  it("keeping positions only down to a level answers every path that short exactly as keeping them all", () => {
    fc.assert(
      fc.property(document, fc.integer({ min: 0, max: 3 }), (text, levels) => {
        const all = parseFastYaml(text);
        if (!all) return;
        const some = parseFastYaml(text, levels);
        assert.ok(some, "the same text with fewer positions kept was refused");
        assert.deepStrictEqual(some.value, all.value);
        for (const path of pathsOf(all.value).filter((p) => p.length <= levels + 1)) {
          for (const part of ["key", "value"] as const)
            assert.equal(
              fastOffset(some.root, path, part),
              fastOffset(all.root, path, part),
              `${JSON.stringify(text)} ${JSON.stringify(path)} ${part}`,
            );
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("takes spec-shaped files (the benchmark's VMs, the examples without anchors) and agrees on them", () => {
    const vms = Array.from({ length: 50 }, (_, i) => articleVmYaml(`vm-${i}`, 1000 + i, `pve${(i % 3) + 1}`)).join("");
    assert.ok(agreesWithLibrary(`version: 1\n# generated\nvms:${vms}\n`));
    const dir = join(import.meta.dirname, "../../examples");
    for (const name of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n))) {
      const text = readFileSync(join(dir, name), "utf8");
      if (!/[&*]\w|<<|\|$|>$/m.test(text)) assert.ok(agreesWithLibrary(text), `the fast path refused ${name}`);
      else agreesWithLibrary(text);
    }
  });
});
