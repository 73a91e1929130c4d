// The Jinja subset evaluates random expressions over random host variables to what Ansible's
// own templar (Debian's ansible-core, run once per batch with /usr/bin/python3) gives for
// compose: the same value, or an error in both. Float literals and Python method attributes
// (d.items) are outside the generator: they are the documented differences.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { ExpressionError, HostEvalError, parseBareExpression, renderTemplate } from "../../src/inventory/jinja/index.js";

const PYTHON = "/usr/bin/python3";
const missing =
  existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import ansible.template"]).status === 0 ? undefined : "needs Debian's ansible-core";

const TEMPLAR = `
import json, sys
from ansible.template import Templar
from ansible.parsing.dataloader import DataLoader
templar = Templar(loader=DataLoader())
out = []
for case in json.load(sys.stdin):
    templar.available_variables = case["vars"]
    try:
        value = templar.template("{{" + case["expr"] + "}}", disable_lookups=True)
        json.dumps(value)
        out.append({"ok": value})
    except Exception as e:
        out.append({"error": str(e)})
print(json.dumps(out))
`;

interface Case {
  expr: string;
  vars: Record<string, unknown>;
}

const text = fc.oneof(
  fc.constantFrom("", "web", "Web-1", "a b", "True", "[1, 2]", "{x}", "it's", 'say "hi"', "x\\y", "l26", "10.0.0.5/24"),
  fc.string({ maxLength: 6 }).filter((s) => !/\{[{%#]/.test(s)),
);
// (Ansible templates variable values that hold Jinja markup again; pvectl never evaluates what PVE returns.)
const scalar = fc.oneof(text, fc.integer({ min: -5, max: 300 }), fc.boolean(), fc.constant(null));
const value = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom("x", "y", "bridge"), scalar, { maxKeys: 3 }) },
);
const vars = fc.dictionary(fc.constantFrom("a", "b", "tags", "net", "name", "vmid"), value, { maxKeys: 6 });

const literal = fc.oneof(
  fc.constantFrom(
    "'web'",
    "''",
    "'a'",
    '"x y"',
    "'True'",
    "'[1]'",
    "0",
    "1",
    "3",
    "-1",
    "true",
    "false",
    "none",
    "[]",
    "[1, 'a']",
    "{'x': 1}",
  ),
);
const variable = fc.constantFrom("a", "b", "tags", "net", "name", "vmid", "zz");
const leaf = fc.oneof({ weight: 3, arbitrary: variable }, { weight: 2, arbitrary: literal });

const { expr } = fc.letrec<{ expr: string }>((tie) => {
  const sub = tie("expr");
  const wrapped = fc.tuple(sub, fc.boolean()).map(([e, paren]) => (paren ? `(${e})` : e));
  return {
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 6, arbitrary: leaf },
      // Subscripts of variables only: Jinja folds constant expressions at compile time, and Ansible
      // then returns the template text unrendered when a folded subscript is undefined.
      fc.tuple(variable, fc.constantFrom(".x", ".bridge", "['y']", "[0]", "[-1]", ".0")).map(([e, p]) => `${e}${p}`),
      fc
        .tuple(
          wrapped,
          fc.constantFrom(
            "default('d')",
            "d(5, true)",
            "default",
            "lower",
            "upper",
            "string",
            "length",
            "count",
            "first",
            "last",
            "join(',')",
            "join",
            "int",
            "int(7)",
            "list",
            "regex_replace('a', 'b')",
            "regex_replace('(\\\\w)(\\\\w)', '\\\\2\\\\1')",
            "regex_replace('^(?P<h>[a-z]+).*$', '\\\\g<h>!', ignorecase=true)",
          ),
        )
        .map(([e, f]) => `${e} | ${f}`),
      // Parenthesised: a name after a test (`x is defined if c`) is the test's argument in Jinja.
      fc.tuple(wrapped, fc.constantFrom("is defined", "is not defined", "is undefined", "is none")).map(([e, t]) => `(${e} ${t})`),
      fc
        .tuple(wrapped, fc.constantFrom("==", "!=", "<", ">=", "in", "not in", "and", "or", "~"), wrapped)
        .map(([l, op, r]) => `${l} ${op} ${r}`),
      // Parenthesised: as a comparison's right side, Jinja reads `not (x)` as a call of a variable `not`.
      wrapped.map((e) => `(not ${e})`),
      fc.tuple(wrapped, wrapped, wrapped).map(([t, y, n]) => `${y} if ${t} else ${n}`),
      fc.tuple(wrapped, wrapped).map(([y, t]) => `${y} if ${t}`),
      fc.tuple(sub, sub).map(([x, y]) => `[${x}, ${y}]`),
      sub.map((x) => `{'k': ${x}}`),
    ),
  };
});

function ours(c: Case): { ok: unknown } | { error: string } {
  try {
    return { ok: renderTemplate(parseBareExpression(c.expr), { vars: c.vars }) };
  } catch (err) {
    // Only the evaluator's own errors count as "fails like Ansible"; anything else is a bug here.
    if (err instanceof HostEvalError || err instanceof ExpressionError) return { error: err.message };
    throw err;
  }
}

test("random expressions evaluate as Ansible's templar evaluates them", { skip: missing }, () => {
  const cases: Case[] = fc.sample(fc.record({ expr, vars }), {
    numRuns: Number(process.env.JINJA_RUNS ?? 600),
    seed: Number(process.env.JINJA_SEED ?? 17),
  });
  const run = spawnSync(PYTHON, ["-c", TEMPLAR], { input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  const theirs = JSON.parse(run.stdout) as Array<{ ok?: unknown; error?: string }>;
  const mismatches: string[] = [];
  let folded = 0;
  cases.forEach((c, i) => {
    const mine = ours(c);
    const want = theirs[i]!;
    // Jinja folds constant parts at compile time; when one folds to undefined (`'' | last`),
    // Ansible hands back the template unrendered. pvectl fails such an entry instead.
    if (want.ok === `{{${c.expr}}}`) {
      folded++;
      return;
    }
    const same = "error" in mine ? want.error !== undefined : want.error === undefined && isDeepStrictEqual(mine.ok, want.ok);
    if (!same)
      mismatches.push(
        `${c.expr}  vars=${JSON.stringify(c.vars)}\n    ansible: ${JSON.stringify(want)}\n    pvectl:  ${JSON.stringify(mine)}`,
      );
  });
  assert.deepEqual(mismatches.slice(0, 10), [], `${mismatches.length} of ${cases.length} differ`);
  assert.ok(folded <= cases.length / 50, `${folded} cases left out as folded constants: the generator should rarely make them`);
});
