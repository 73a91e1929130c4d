// The filters and tests of the supported subset, each with Jinja's (or Ansible's) signature
// and behaviour: defaults, keyword arguments, and what they do with an undefined value.
import { regexReplace } from "./regex.js";
import { defined, HostEvalError, isMapping, pyIter, pyStr, truthy, typeName, Undefined } from "./values.js";

type Filter = (value: unknown, args: unknown[], named: Record<string, unknown>) => unknown;

/** Binds positional and keyword arguments to a filter's parameter names, Python-style. */
function bind(filter: string, params: string[], defaults: unknown[], args: unknown[], named: Record<string, unknown>): unknown[] {
  if (args.length > params.length) throw new HostEvalError(`${filter}() takes at most ${params.length} arguments (${args.length} given)`);
  const out = params.map((_, i) => (i < args.length ? args[i] : defaults[i]));
  for (const [key, value] of Object.entries(named)) {
    const at = params.indexOf(key);
    if (at < 0) throw new HostEvalError(`${filter}() got an unexpected keyword argument '${key}'`);
    if (at < args.length) throw new HostEvalError(`${filter}() got multiple values for argument '${key}'`);
    out[at] = value;
  }
  return out;
}

/** str(value): Jinja's plain undefined (from `x if c`) prints as "", Ansible's fails. */
function text(value: unknown): string {
  return pyStr(value);
}

/** Python's int(str, base): optional sign, digits with single underscores, surrounding spaces. */
function parseIntText(s: string, base: number): number | undefined {
  const digits = base === 16 ? "[0-9a-fA-F]" : base === 8 ? "[0-7]" : base === 2 ? "[01]" : "\\d";
  const prefix = base === 16 ? "(?:0[xX])?" : base === 8 ? "(?:0[oO])?" : base === 2 ? "(?:0[bB])?" : "";
  const m = new RegExp(`^\\s*([+-]?)${prefix}(${digits}+(?:_${digits}+)*)\\s*$`).exec(s);
  if (!m) return undefined;
  const n = Number.parseInt(m[2]!.replace(/_/g, ""), base);
  return m[1] === "-" ? -n : n;
}

/** Python's float(str) for the forms people write. */
function parseFloatText(s: string): number | undefined {
  const t = s.trim().replace(/_/g, "");
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : undefined;
}

/** Jinja's int filter: int(value), else int(float(value)), else the default. */
function toInt(value: unknown, fallback: unknown, base: unknown): unknown {
  defined(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "string") {
    const asInt = parseIntText(value, Number(base));
    if (asInt !== undefined) return asInt;
    const asFloat = parseFloatText(value);
    if (asFloat !== undefined && Number.isFinite(asFloat)) return Math.trunc(asFloat);
  }
  return fallback;
}

function sized(value: unknown): number {
  if (value instanceof Undefined && value.lenient) return 0;
  defined(value);
  if (typeof value === "string") return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isMapping(value)) return Object.keys(value).length;
  throw new HostEvalError(`object of type '${typeName(value)}' has no len()`);
}

function end(which: "first" | "last"): Filter {
  return (value) => {
    const items = pyIter(value);
    if (items.length === 0) return new Undefined(`No ${which} item, sequence was empty.`);
    return which === "first" ? items[0] : items[items.length - 1];
  };
}

const defaultFilter: Filter = (value, args, named) => {
  const [fallback, boolean] = bind("default", ["default_value", "boolean"], ["", false], args, named);
  if (value instanceof Undefined || (truthy(boolean) && !truthy(value))) return fallback;
  return value;
};

export const FILTERS: Record<string, Filter> = {
  default: defaultFilter,
  d: defaultFilter,
  lower: (value) => text(value).toLowerCase(),
  upper: (value) => text(value).toUpperCase(),
  string: (value) => text(value),
  length: (value) => sized(value),
  count: (value) => sized(value),
  first: end("first"),
  last: end("last"),
  list: (value) => [...pyIter(value)],
  join: (value, args, named) => {
    const [separator, attribute] = bind("join", ["d", "attribute"], ["", null], args, named);
    if (attribute !== null) throw new HostEvalError("join(attribute=...) is not supported");
    return pyIter(value).map(pyStr).join(pyStr(separator));
  },
  int: (value, args, named) => {
    const [fallback, base] = bind("int", ["default", "base"], [0, 10], args, named);
    return toInt(value, fallback, base);
  },
  regex_replace: (value, args, named) => {
    const [pattern, replacement, ignorecase, multiline] = bind(
      "regex_replace",
      ["pattern", "replacement", "ignorecase", "multiline"],
      ["", "", false, false],
      args,
      named,
    );
    return regexReplace(text(value), text(pattern), text(replacement), truthy(ignorecase), truthy(multiline));
  },
};

type Test = (value: unknown, args: unknown[]) => boolean;

export const TESTS: Record<string, Test> = {
  defined: (value) => !(value instanceof Undefined),
  undefined: (value) => value instanceof Undefined,
  none: (value) => value === null,
};
