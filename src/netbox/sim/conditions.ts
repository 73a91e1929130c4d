// Event-rule conditions as NetBox evaluates them (extras/conditions.py): a condition set is
// {"and": [...]} or {"or": [...]} (nested sets allowed) or one bare condition
// {attr, value, op = "eq", negate = false}. `attr` is a dotted path into the object as the REST
// API serialises it (`status.value`, `tags.slug`: a key applied to a list maps over its items).
// A rule whose conditions do not hold sends nothing; a path that does not resolve, or a value
// an operator cannot compare, makes the rule not match (NetBox logs it and sends nothing).
// The type rules are Python's: which operators a value of each JSON type allows, and `==`
// with True == 1. Not simulated: the snapshot operators (`changed`, `unchanged`) and
// `snapshots.*` paths; they are refused when the rule is saved.

export type Compiled = { logic: "and" | "or"; items: Compiled[] } | Condition;

interface Condition {
  attr: string[];
  op: Operator;
  value: unknown;
  negate: boolean;
}

const OPERATORS = ["eq", "gt", "gte", "lt", "lte", "in", "contains", "regex"] as const;
type Operator = (typeof OPERATORS)[number];

/** Python's type name of a JSON value, and the operators NetBox allows for it. */
function pythonType(value: unknown): string {
  if (value === null) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return "dict";
}

const OPERATORS_BY_TYPE: Record<string, readonly Operator[]> = {
  str: ["eq", "contains", "regex"],
  bool: ["eq", "contains"],
  int: ["eq", "gt", "gte", "lt", "lte", "contains"],
  float: ["eq", "gt", "gte", "lt", "lte", "contains"],
  list: ["eq", "in", "contains"],
  NoneType: ["eq"],
};

class InvalidConditions extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isRuleset = (v: unknown): boolean => isObject(v) && Object.keys(v).length === 1 && ["and", "or"].includes(Object.keys(v)[0] ?? "");

function compileCondition(rule: Record<string, unknown>): Condition {
  const keys = Object.keys(rule);
  if (!("attr" in rule) || keys.some((k) => !["attr", "value", "op", "negate"].includes(k))) {
    throw new InvalidConditions("Incorrect key(s) informed. Please check documentation.");
  }
  const op = String(rule.op ?? "eq");
  if (op === "changed" || op === "unchanged")
    throw new InvalidConditions(`The NetBox simulator does not evaluate the snapshot operator '${op}'.`);
  if (!(OPERATORS as readonly string[]).includes(op))
    throw new InvalidConditions(`Unknown operator: ${op}. Must be one of: ${OPERATORS.join(", ")}`);
  if (!("value" in rule)) throw new InvalidConditions(`A value is required for the '${op}' operator.`);
  const type = pythonType(rule.value);
  const allowed = OPERATORS_BY_TYPE[type];
  if (!allowed) throw new InvalidConditions(`Unsupported value type: <class '${type}'>`);
  if (!allowed.includes(op as Operator)) throw new InvalidConditions(`Invalid type for ${op} operation: <class '${type}'>`);
  const attr = String(rule.attr);
  if (attr.startsWith("snapshots.")) throw new InvalidConditions("The NetBox simulator does not evaluate conditions on snapshots.");
  return { attr: attr.split("."), op: op as Operator, value: rule.value, negate: Boolean(rule.negate) };
}

function compileSet(ruleset: unknown): Compiled {
  if (!isObject(ruleset)) throw new InvalidConditions(`Ruleset must be a dictionary, not <class '${pythonType(ruleset)}'>.`);
  const keys = Object.keys(ruleset);
  if (keys.length !== 1) return compileCondition(ruleset);
  const logic = (keys[0] ?? "").toLowerCase();
  if (logic !== "and" && logic !== "or")
    throw new InvalidConditions("Invalid logic type: must be 'AND' or 'OR'. Please check documentation.");
  const rules = ruleset[keys[0] ?? ""];
  if (!Array.isArray(rules)) throw new InvalidConditions("Incorrect key(s) informed. Please check documentation.");
  return {
    logic,
    items: rules.map((rule) => {
      if (isRuleset(rule)) return compileSet(rule);
      if (!isObject(rule)) throw new InvalidConditions("Incorrect key(s) informed. Please check documentation.");
      return compileCondition(rule);
    }),
  };
}

/** The compiled conditions, or the message NetBox gives when saving them. */
export function compileConditions(raw: unknown): { ok: true; conditions: Compiled } | { ok: false; message: string } {
  try {
    return { ok: true, conditions: compileSet(raw) };
  } catch (err) {
    if (err instanceof InvalidConditions) return { ok: false, message: err.message };
    throw err;
  }
}

const MISSING = Symbol("missing");

/** `keys` walked through `data`; a key over a list maps over its items. */
function walk(data: unknown, keys: string[]): unknown {
  let at: unknown = data;
  for (const key of keys) {
    if (at === null || at === undefined) return MISSING;
    if (Array.isArray(at)) {
      const values: unknown[] = [];
      for (const item of at) {
        if (item === null) return MISSING;
        if (!isObject(item)) throw new InvalidConditions(`cannot resolve '${key}'`);
        if (!(key in item)) return MISSING;
        values.push(item[key]);
      }
      at = values;
    } else if (isObject(at)) {
      if (!(key in at)) return MISSING;
      at = at[key];
    } else {
      throw new InvalidConditions(`cannot resolve '${key}'`);
    }
  }
  return at;
}

/** Python's `==` on JSON values: bools are ints (True == 1), lists and dicts compare deeply. */
function pyEquals(a: unknown, b: unknown): boolean {
  const num = (v: unknown) => (typeof v === "boolean" ? Number(v) : v);
  if ((typeof a === "number" || typeof a === "boolean") && (typeof b === "number" || typeof b === "boolean")) return num(a) === num(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEquals(a[k], b[k]));
  }
  return a === b;
}

function order(data: unknown, value: unknown): number {
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "boolean";
  if (!numeric(data)) throw new InvalidConditions("not comparable");
  return Number(data) - Number(value);
}

function contains(container: unknown, value: unknown): boolean {
  if (typeof container === "string") {
    if (typeof value !== "string") throw new InvalidConditions("'in <string>' requires string as left operand");
    return container.includes(value);
  }
  if (Array.isArray(container)) return container.some((item) => pyEquals(item, value));
  if (isObject(container)) return typeof value === "string" && value in container;
  throw new InvalidConditions("not a container");
}

function test(condition: Condition, data: unknown): boolean {
  const found = walk(data, condition.attr);
  if (found === MISSING) throw new InvalidConditions(`Invalid key path: ${condition.attr.join(".")}`);
  switch (condition.op) {
    case "eq":
      return pyEquals(found, condition.value);
    case "gt":
      return order(found, condition.value) > 0;
    case "gte":
      return order(found, condition.value) >= 0;
    case "lt":
      return order(found, condition.value) < 0;
    case "lte":
      return order(found, condition.value) <= 0;
    case "in":
      return (condition.value as unknown[]).some((item) => pyEquals(item, found));
    case "contains":
      return contains(found, condition.value);
    case "regex":
      if (typeof found !== "string") throw new InvalidConditions("regex needs a string");
      // re.match: anchored at the start only; a sticky expression matches from index 0 the same way.
      return new RegExp(String(condition.value), "y").test(found);
  }
}

function evaluate(compiled: Compiled, data: unknown): boolean {
  if ("logic" in compiled) {
    return compiled.logic === "and" ? compiled.items.every((c) => evaluate(c, data)) : compiled.items.some((c) => evaluate(c, data));
  }
  const result = test(compiled, data);
  return compiled.negate ? !result : result;
}

/** Whether the object `data` (REST serialisation) meets the conditions; one that cannot be evaluated does not. */
export function conditionsHold(compiled: Compiled, data: unknown): boolean {
  try {
    return evaluate(compiled, data);
  } catch (err) {
    if (err instanceof InvalidConditions || err instanceof SyntaxError) return false;
    throw err;
  }
}
