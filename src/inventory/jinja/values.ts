// Jinja's values are Python's: this file gives JSON-shaped JS values Python's behaviour where
// Ansible's output depends on it (str(), repr(), truthiness, ==, <, `in`), so that an
// expression evaluates here to what Ansible's templar would produce for the same variables.
// Ints and floats are both JS numbers: a whole number prints as an int (`1`, not `1.0`).

/** Ansible's undefined (a StrictUndefined): reading through it keeps it, using it is an error. */
export const MISSING = Symbol("missing");

export class Undefined {
  /**
   * `lenient`: Jinja's plain Undefined (what `x if c` without else gives even in Ansible),
   * which prints as "" and is false instead of failing. `obj` and `name` say what was looked
   * up in what, for the repr() Ansible prints of an undefined inside a list or dict.
   */
  constructor(
    readonly why: string,
    readonly lenient = false,
    readonly obj: unknown = MISSING,
    readonly name?: unknown,
  ) {}

  repr(): string {
    if (this.lenient) return "Undefined";
    const hint = this.obj === MISSING && this.name === undefined ? reprString(this.why) : "None";
    const obj = this.obj === MISSING ? "missing" : pyRepr(this.obj);
    const name = this.name === undefined ? "None" : pyRepr(this.name);
    return `AnsibleUndefined(hint=${hint}, obj=${obj}, name=${name})`;
  }
}

/** Whether a value is or holds (in a list or dict) an undefined that must fail when output. */
export function holdsUndefined(value: unknown): boolean {
  if (value instanceof Undefined) return !value.lenient;
  if (Array.isArray(value)) return value.some(holdsUndefined);
  if (isMapping(value)) return Object.values(value).some(holdsUndefined);
  return false;
}

/** An error Python would raise while evaluating (TypeError, UndefinedError ...): the host's entry fails. */
export class HostEvalError extends Error {}

const TUPLE = Symbol("tuple");

/** A Python tuple: a list that prints with parentheses. */
export function tuple(items: unknown[]): unknown[] {
  Object.defineProperty(items, TUPLE, { value: true });
  return items;
}

function isTuple(value: unknown[]): boolean {
  return (value as unknown as Record<symbol, unknown>)[TUPLE] === true;
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Undefined);
}

/** Fails the way Ansible does when an undefined value is used rather than passed along. */
export function defined<T>(value: T | Undefined): T {
  if (value instanceof Undefined) throw new HostEvalError(value.why);
  return value;
}

/** Python's type name, for messages like Python's own. */
export function typeName(value: unknown): string {
  if (value === null) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (Array.isArray(value)) return isTuple(value) ? "tuple" : "list";
  if (value instanceof Undefined) return "AnsibleUndefined";
  return "dict";
}

function numberText(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  return String(n);
}

/** Python's repr() of a str: single quotes unless the text has one and no double quote. */
export function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

export function pyRepr(value: unknown): string {
  if (typeof value === "string") return reprString(value);
  if (value instanceof Undefined) return value.repr();
  if (Array.isArray(value)) {
    const items = value.map(pyRepr);
    if (!isTuple(value)) return `[${items.join(", ")}]`;
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  if (isMapping(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${reprString(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return pyStr(value);
}

/** Python's str(): what `~`, `join`, `string` and Ansible's output conversion print. */
export function pyStr(value: unknown): string {
  if (value instanceof Undefined && value.lenient) return "";
  if (value instanceof Undefined) throw new HostEvalError(value.why);
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return numberText(value);
  return pyRepr(value);
}

export function truthy(value: unknown): boolean {
  if (value instanceof Undefined && value.lenient) return false;
  if (value instanceof Undefined) throw new HostEvalError(value.why);
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return Object.keys(value).length > 0;
  return true;
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

/** Python's ==: True == 1, [1] == [1], different types otherwise unequal. */
export function pyEquals(a: unknown, b: unknown): boolean {
  // Ansible's undefined fails; Jinja's plain one (from `x if c`) equals only another one.
  if ((a instanceof Undefined && !a.lenient) || (b instanceof Undefined && !b.lenient))
    defined(a instanceof Undefined && !a.lenient ? a : b);
  if ((a instanceof Undefined && a.lenient) || (b instanceof Undefined && b.lenient)) {
    return a instanceof Undefined && b instanceof Undefined && a.lenient === b.lenient;
  }
  defined(a);
  defined(b);
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na === nb;
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || isTuple(a) !== isTuple(b) || a.length !== b.length) return false;
    return a.every((item, i) => pyEquals(item, b[i]));
  }
  if (isMapping(a) && isMapping(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEquals(a[k], b[k]));
  }
  return false;
}

/** Python's ordering (<): numbers with numbers, str with str, lists item by item; else a TypeError. */
export function pyCompare(a: unknown, b: unknown, op: string): number {
  defined(a);
  defined(b);
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return codePointCompare(a, b);
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (!pyEquals(a[i], b[i])) return pyCompare(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  throw new HostEvalError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

function codePointCompare(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]!.codePointAt(0) ?? 0) - (y[i]!.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's `needle in haystack`. */
export function pyContains(haystack: unknown, needle: unknown): boolean {
  if (haystack instanceof Undefined && haystack.lenient) return false;
  defined(haystack);
  if (typeof haystack === "string") {
    if (typeof defined(needle) !== "string") {
      throw new HostEvalError(`'in <string>' requires string as left operand, not ${typeName(needle)}`);
    }
    return haystack.includes(needle as string);
  }
  if (Array.isArray(haystack)) return haystack.some((item) => pyEquals(item, needle));
  if (isMapping(haystack)) {
    if (Array.isArray(defined(needle)) || isMapping(needle)) throw new HostEvalError(`unhashable type: '${typeName(needle)}'`);
    return typeof needle === "string" && Object.hasOwn(haystack, needle);
  }
  throw new HostEvalError(`argument of type '${typeName(haystack)}' is not iterable`);
}

/** Python's iter(): a str's characters, a dict's keys, a list's items. */
export function pyIter(value: unknown): unknown[] {
  if (value instanceof Undefined && value.lenient) return [];
  defined(value);
  if (typeof value === "string") return [...value];
  if (Array.isArray(value)) return value;
  if (isMapping(value)) return Object.keys(value);
  throw new HostEvalError(`'${typeName(value)}' object is not iterable`);
}
