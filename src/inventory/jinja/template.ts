// Templates as Ansible renders them: text with `{{ expression }}` parts, and the conversion
// Ansible applies to the result (ansible_eval_concat, non-native mode): everything becomes
// text, and text that looks like a list, a dict or a boolean is read back as one. So a
// composed `ansible_port: 2222` is the string "2222", and `proxmox_tags_parsed` stays a list.
import type { Expr } from "./ast.js";
import { ExpressionError } from "./errors.js";
import { type EvalContext, evaluate } from "./evaluate.js";
import { parseExpression } from "./parser.js";
import { HostEvalError, pyStr } from "./values.js";

type Part = { text: string } | { expr: Expr; source: string };

/** A parsed template: literal text and expressions, in order. */
export interface Template {
  source: string;
  parts: Part[];
}

/** Ansible's is_template: whether a string has Jinja markup at all. */
export function isTemplate(text: string): boolean {
  return /\{\{|\{%|\{#/.test(text);
}

export function parseTemplate(source: string): Template {
  const parts: Part[] = [];
  let pos = 0;
  while (pos < source.length) {
    const open = source.slice(pos).search(/\{\{|\{%|\{#/);
    if (open < 0) {
      parts.push({ text: source.slice(pos) });
      break;
    }
    const at = pos + open;
    if (at > pos) parts.push({ text: source.slice(pos, at) });
    if (source.startsWith("{%", at)) throw new ExpressionError(source, at, "statements ({% ... %}) are not supported; use an inline `x if c else y`");
    if (source.startsWith("{#", at)) throw new ExpressionError(source, at, "comments ({# ... #}) are not supported");
    const close = findClose(source, at + 2);
    if (close < 0) throw new ExpressionError(source, at, "'{{' is not closed by '}}'");
    const inner = source.slice(at + 2, close);
    parts.push({ expr: parseOffset(inner, source, at + 2), source: inner.trim() });
    pos = close + 2;
  }
  return { source, parts };
}

/** The `}}` that ends an expression, skipping string literals (which may contain one). */
function findClose(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const ch = source[i];
    if (ch === "'" || ch === '"') {
      i++;
      while (i < source.length && source[i] !== ch) i += source[i] === "\\" ? 2 : 1;
    } else if (source.startsWith("}}", i)) return i;
  }
  return -1;
}

/** Parses an embedded expression, reporting positions in the whole template. */
function parseOffset(inner: string, whole: string, offset: number): Expr {
  try {
    return parseExpression(inner);
  } catch (err) {
    if (err instanceof ExpressionError) throw new ExpressionError(whole, err.position + offset, err.problem);
    throw err;
  }
}

/** Renders a template to Ansible's result: one expression's value, or the joined text. */
export function renderTemplate(template: Template, ctx: EvalContext): unknown {
  const values = template.parts.map((p) => ("text" in p ? p.text : evaluate(p.expr, ctx)));
  if (values.length === 0) return "";
  return ansibleFinalize(values.map(pyStr).join(""));
}

/** ansible_eval_concat's last step: `[...]`, `{...}`, True and False are read back as Python literals. */
export function ansibleFinalize(out: string): unknown {
  if (!(out.startsWith("{") || out.startsWith("[") || out === "True" || out === "False")) return out;
  try {
    return literal(parseExpression(out));
  } catch (err) {
    if (err instanceof ExpressionError || err instanceof NotLiteral) return out;
    throw err;
  }
}

class NotLiteral extends Error {}

const JSON_NAMES: Record<string, unknown> = { true: true, false: false, null: null };

/** Python's ast.literal_eval after Ansible maps true/false/null: constants, lists, tuples, dicts. */
function literal(node: Expr): unknown {
  switch (node.type) {
    case "const":
      return node.value;
    case "name":
      if (node.name in JSON_NAMES) return JSON_NAMES[node.name];
      throw new NotLiteral();
    case "neg": {
      const value = literal(node.operand);
      if (typeof value !== "number") throw new NotLiteral();
      return -value;
    }
    case "list":
      return node.items.map(literal);
    case "dict":
      return Object.fromEntries(node.entries.map(([k, v]) => [pyStr(literal(k)), literal(v)]));
    default:
      throw new NotLiteral();
  }
}

/** An expression without the braces, as compose, keyed_groups and filters take it (Ansible wraps it in `{{ }}`). */
export function parseBareExpression(source: unknown): Template {
  const text = pyStr(source);
  return { source: text, parts: [{ expr: parseExpression(text), source: text }] };
}

export { HostEvalError };
