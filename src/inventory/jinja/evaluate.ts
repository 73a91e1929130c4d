// Walks an expression tree over one host's variables, with Ansible's semantics: an unknown
// variable or key is an Undefined that `default` and `is defined` can handle and anything
// else fails on (HostEvalError); lookups other than the environment are refused.
import type { Args, Expr } from "./ast.js";
import { FILTERS, TESTS } from "./filters.js";
import {
  defined,
  HostEvalError,
  isMapping,
  MISSING,
  pyCompare,
  pyContains,
  pyEquals,
  pyStr,
  truthy,
  tuple,
  typeName,
  Undefined,
} from "./values.js";

export interface EvalContext {
  vars: Readonly<Record<string, unknown>>;
  /** The environment `lookup('env', ...)` reads; undefined when lookups are disabled here (as Ansible disables them in compose and keyed_groups). */
  env?: Readonly<Record<string, string | undefined>>;
}

const ENV_LOOKUPS = new Set(["env", "ansible.builtin.env"]);

function attribute(target: unknown, key: string): unknown {
  if (target instanceof Undefined) return target; // Ansible's undefined keeps the first failure
  if (isMapping(target) && Object.hasOwn(target, key)) return target[key];
  return new Undefined(
    `'${typeName(target) === "dict" ? "dict object" : `${typeName(target)} object`}' has no attribute '${key}'`,
    false,
    target,
    key,
  );
}

function item(target: unknown, index: unknown): unknown {
  if (target instanceof Undefined) return target;
  defined(index);
  if ((Array.isArray(target) || typeof target === "string") && (typeof index === "number" || typeof index === "boolean")) {
    const items = typeof target === "string" ? [...target] : target;
    const n = Number(index);
    const at = n < 0 ? items.length + n : n;
    if (Number.isInteger(at) && at >= 0 && at < items.length) return items[at];
    return new Undefined(`${typeName(target)} object has no element ${pyStr(index)}`, false, target, n);
  }
  if (typeof index === "string") return attribute(target, index);
  return new Undefined(`'${typeName(target)} object' has no element ${pyStr(index)}`, false, target, index);
}

function compare(op: string, left: unknown, right: unknown): boolean {
  switch (op) {
    case "==":
      return pyEquals(left, right);
    case "!=":
      return !pyEquals(left, right);
    case "in":
      return pyContains(right, left);
    case "notin":
      return !pyContains(right, left);
    case "<":
      return pyCompare(left, right, op) < 0;
    case "<=":
      return pyCompare(left, right, op) <= 0;
    case ">":
      return pyCompare(left, right, op) > 0;
    default:
      return pyCompare(left, right, op) >= 0;
  }
}

function lookup(name: string, args: unknown[], named: Record<string, unknown>, ctx: EvalContext): unknown {
  if (!ENV_LOOKUPS.has(name)) throw new HostEvalError(`lookup('${name}') is not supported; only lookup('env', NAME) is`);
  if (!ctx.env) throw new HostEvalError("lookups are disabled here (as in Ansible's compose, keyed_groups and filters)");
  const fallback = "default" in named ? named.default : "";
  return args.map((term) => ctx.env?.[pyStr(term)] ?? pyStr(fallback)).join(",");
}

export function evaluate(node: Expr, ctx: EvalContext): unknown {
  const ev = (n: Expr) => evaluate(n, ctx);
  const evArgs = (args: Args) => ({
    positional: args.positional.map(ev),
    named: Object.fromEntries(Object.entries(args.named).map(([k, v]) => [k, ev(v)])),
  });
  switch (node.type) {
    case "const":
      return node.value;
    case "name":
      return Object.hasOwn(ctx.vars, node.name)
        ? ctx.vars[node.name]
        : new Undefined(`'${node.name}' is undefined`, false, MISSING, node.name);
    case "getattr":
      return attribute(ev(node.target), node.attr);
    case "getitem":
      return item(ev(node.target), ev(node.index));
    case "list": {
      const items = node.items.map(ev);
      return node.tuple ? tuple(items) : items;
    }
    case "dict":
      return Object.fromEntries(node.entries.map(([k, v]) => [pyStr(defined(ev(k))), ev(v)]));
    case "filter": {
      const args = evArgs(node.args);
      return FILTERS[node.name]!(ev(node.target), args.positional, args.named);
    }
    case "test": {
      const result = TESTS[node.name]!(ev(node.target), evArgs(node.args).positional);
      return node.negated ? !result : result;
    }
    case "lookup": {
      const args = evArgs(node.args);
      return lookup(node.name, args.positional, args.named, ctx);
    }
    case "not":
      return !truthy(ev(node.operand));
    case "neg": {
      const value = defined(ev(node.operand));
      if (typeof value !== "number" && typeof value !== "boolean")
        throw new HostEvalError(`bad operand type for unary -: '${typeName(value)}'`);
      return -Number(value);
    }
    case "and": {
      const left = ev(node.left);
      return truthy(left) ? ev(node.right) : left;
    }
    case "or": {
      const left = ev(node.left);
      return truthy(left) ? left : ev(node.right);
    }
    case "compare": {
      let left = ev(node.first);
      for (const { op, operand } of node.ops) {
        const right = ev(operand);
        if (!compare(op, left, right)) return false;
        left = right;
      }
      return true;
    }
    case "concat":
      return node.parts.map((p) => pyStr(ev(p))).join("");
    case "cond":
      if (truthy(ev(node.test))) return ev(node.whenTrue);
      return node.otherwise
        ? ev(node.otherwise)
        : new Undefined("the inline if expression evaluated to false and no else section was defined.", true);
  }
}

export { HostEvalError };
