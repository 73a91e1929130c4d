// Templates as Ansible renders them: text with `{{ expression }}` parts, and the conversion
// Ansible applies to the result (ansible_eval_concat, non-native mode): everything becomes
// text, and text that looks like a list, a dict or a boolean is read back as one. So a
// composed `ansible_port: 2222` is the string "2222", and `proxmox_tags_parsed` stays a list.
import type { Expr } from "./ast.js";
import { ExpressionError } from "./errors.js";
import { type EvalContext, evaluate } from "./evaluate.js";
import { parseExpression, parsePythonLiteral } from "./parser.js";
import { HostEvalError, holdsUndefined, pyStr, truthy, Undefined } from "./values.js";

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
    if (source.startsWith("{%", at))
      throw new ExpressionError(source, at, "statements ({% ... %}) are not supported; use an inline `x if c else y`");
    if (source.startsWith("{#", at)) throw new ExpressionError(source, at, "comments ({# ... #}) are not supported");
    const close = findClose(source, at + 2);
    if (close < 0) throw new ExpressionError(source, at, "'{{' is not closed by '}}'");
    const { inner, offset, trimBefore, trimAfter } = whitespaceControl(source.slice(at + 2, close), at + 2);
    const previous = parts[parts.length - 1];
    if (trimBefore && previous && "text" in previous) previous.text = previous.text.trimEnd();
    parts.push({ expr: parseOffset(inner, source, offset), source: inner.trim() });
    pos = close + 2;
    if (trimAfter) while (pos < source.length && /\s/.test(source[pos]!)) pos++;
  }
  return { source, parts };
}

/** The `}}` that ends an expression: outside string literals and brackets (a dict in a dict ends in `}}` too). */
function findClose(source: string, from: number): number {
  let depth = 0;
  for (let i = from; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "'" || ch === '"') {
      const end = source.indexOf(ch, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (depth === 0 && source.startsWith("}}", i)) return i;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
  }
  return -1;
}

/**
 * Jinja's whitespace control: `{{-` and `-}}` strip the text around the expression, `{{+`
 * is accepted; the sign is not part of the expression (so compose `-1` gives "1", as in Ansible).
 */
function whitespaceControl(raw: string, offset: number) {
  const lead = raw[0] === "-" || raw[0] === "+" ? raw[0] : "";
  const trail = raw.length > lead.length && raw.endsWith("-") ? "-" : "";
  return {
    inner: raw.slice(lead.length, raw.length - trail.length),
    offset: offset + lead.length,
    trimBefore: lead === "-",
    trimAfter: trail === "-",
  };
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
  const single = singleVariable(template, ctx);
  if (single.found) return single.value;
  // Ansible's finalize prints None as "" (the whole result is never None, except just above).
  const values = template.parts.map((p) => ("text" in p ? p.text : evaluate(p.expr, ctx)));
  for (const value of values) if (holdsUndefined(value)) throw new HostEvalError(undefinedReason(value));
  const out = values.map((v) => (v === null ? "" : pyStr(v))).join("");
  const only = template.parts.length === 1 ? template.parts[0] : undefined;
  // Ansible keeps the output of its string-type filters (`string`) as text, unread.
  if (only && "expr" in only && nativeText(only.expr, ctx)) return out;
  return ansibleFinalize(out);
}

function undefinedReason(value: unknown): string {
  if (value instanceof Undefined) return value.why;
  const inner = (Array.isArray(value) ? value : Object.values(value as object)).find(holdsUndefined);
  return undefinedReason(inner);
}

/** Whether an expression's result is a `string` filter's (NativeJinjaText), following default, if/else, and, or. */
function nativeText(node: Expr, ctx: EvalContext): boolean {
  switch (node.type) {
    case "filter":
      if (node.name === "string") return true;
      if (node.name !== "default" && node.name !== "d") return false;
      return !(evaluate(node.target, ctx) instanceof Undefined) && !defaultTaken(node, ctx) && nativeText(node.target, ctx);
    case "cond":
      if (truthy(evaluate(node.test, ctx))) return nativeText(node.whenTrue, ctx);
      return node.otherwise ? nativeText(node.otherwise, ctx) : false;
    case "and":
      return truthy(evaluate(node.left, ctx)) ? nativeText(node.right, ctx) : nativeText(node.left, ctx);
    case "or":
      return truthy(evaluate(node.left, ctx)) ? nativeText(node.left, ctx) : nativeText(node.right, ctx);
    default:
      return false;
  }
}

/** default(value, true) replaces a false value too. */
function defaultTaken(node: Extract<Expr, { type: "filter" }>, ctx: EvalContext): boolean {
  const flag = node.args.positional[1] ?? node.args.named.boolean;
  return flag !== undefined && truthy(evaluate(flag, ctx)) && !truthy(evaluate(node.target, ctx));
}

const SINGLE_VAR = /^\{\{\s*(\w*)\s*\}\}$/;

/** Templar's shortcut: `{{ name }}` of a number, boolean or None is that value, not its text. */
function singleVariable(template: Template, ctx: EvalContext): { found: boolean; value?: unknown } {
  const name = SINGLE_VAR.exec(template.source)?.[1];
  if (name === undefined || !Object.hasOwn(ctx.vars, name)) return { found: false };
  const value = ctx.vars[name];
  return typeof value === "number" || typeof value === "boolean" || value === null ? { found: true, value } : { found: false };
}

/** ansible_eval_concat's last step: `[...]`, `{...}`, True and False are read back as Python literals. */
export function ansibleFinalize(out: string): unknown {
  if (!(out.startsWith("{") || out.startsWith("[") || out === "True" || out === "False")) return out;
  try {
    // Parenthesised, because Python reads a bare `[1], 2` as a tuple.
    return literal(parsePythonLiteral(`(${out})`));
  } catch (err) {
    if (err instanceof ExpressionError || err instanceof NotLiteral) return out;
    throw err;
  }
}

class NotLiteral extends Error {}

/** Python's ast.literal_eval (after Ansible maps true/false/null): constants, lists, tuples, dicts. */
function literal(node: Expr): unknown {
  switch (node.type) {
    case "const":
      return node.value;
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
  const template = parseTemplate(`{{${text}}}`);
  if (template.parts.length !== 1 || "text" in template.parts[0]!) {
    throw new ExpressionError(text, 0, "expected one expression (without {{ }}: Ansible adds them)");
  }
  return template;
}

export { HostEvalError };
