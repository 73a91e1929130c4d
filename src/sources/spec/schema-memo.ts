// The whole-file schema check of a spec written from a template, without running zod over
// every object of it. zod's object check visits every key of the shape for every object (a VM's
// ~70 option fields, ~60 disk slots, 32 NIC slots), which made it a large part of validating a
// 3,000-VM spec although most values repeat. This walks the file along the zod schema's own
// definition: objects and lists are walked here (unknown keys, missing required keys), and each
// other value is judged by its zod schema, once per distinct value (remembered by a key that
// tells apart every value YAML can produce).
//
// It only ever says "accepted" with the data zod itself returns: on the first sign of any
// problem, or any schema it does not know to walk, it gives up (undefined) and the caller runs
// zod over the whole file, which words every issue exactly as before.
// test/sources/schema-memo.property.test.ts checks the accepted data equals zod's, key order too.
import type { z } from "zod";

type Schema = z.core.$ZodType;

/** The parts of zod's definitions the walk reads (zod/v4/core's $ZodObjectDef, $ZodArrayDef ...). */
interface Def {
  type: string;
  checks?: unknown[];
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
}

/** How the walk treats one schema: worked out once per schema, on its first use. */
class Step {
  /** zod's data for each accepted value (leaf use), by the value itself or a composite's key. */
  readonly primitives = new Map<unknown, unknown>();
  readonly composites = new Map<unknown, unknown>();
  /** An optional's inner schema or a list's element. */
  inner: Step | undefined;
  /** An object's keys in zod's order, the key's place, and each key's step (made when first needed). */
  keys: string[] = [];
  index = new Map<string, number>();
  fields: Array<Step | undefined> = [];
  /** Not both optional in and out: zod refuses the key's absence (or makes something of it). */
  required: boolean[] = [];
  requiredCount = 0;

  constructor(
    readonly schema: Schema,
    readonly kind: "leaf" | "optional" | "array" | "object",
  ) {}
}

function sortNumbers(xs: number[]): void {
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && (xs[j] as number) > x) {
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = x;
  }
}

/** Past this many distinct values per schema the memo starts over: it must not grow without bound. */
const MAX_REMEMBERED = 20_000;

/** Gives up: the caller runs zod over the whole input. */
const GIVE_UP: unique symbol = Symbol("give up");

export class SchemaMemo {
  private readonly steps = new WeakMap<Schema, Step>();

  /** zod's data for `value` when `schema` accepts it; undefined when zod must be asked (it may refuse). */
  check(schema: Schema, value: unknown): { data: unknown } | undefined {
    const data = this.walk(this.stepOf(schema), value);
    return data === GIVE_UP ? undefined : { data };
  }

  /** One step per schema (a schema used in many places, like a slot's, shares its memo). */
  private stepOf(schema: Schema): Step {
    const known = this.steps.get(schema);
    if (known) return known;
    const step = makeStep(schema);
    this.steps.set(schema, step);
    const def = schema._zod.def as Def;
    if (step.kind === "optional") step.inner = this.stepOf(def.innerType as Schema);
    if (step.kind === "array") step.inner = this.stepOf(def.element as Schema);
    return step;
  }

  private walk(step: Step, value: unknown): unknown {
    switch (step.kind) {
      // YAML gives no undefined values, so an optional one present is its inner schema's.
      case "optional":
        return value === undefined ? GIVE_UP : this.walk(step.inner as Step, value);
      case "array":
        return Array.isArray(value) ? this.walkArray(step.inner as Step, value) : this.leaf(step, value);
      case "object":
        return isPlainObject(value) ? this.walkObject(step, value) : this.leaf(step, value);
      default:
        return this.leaf(step, value);
    }
  }

  private walkArray(element: Step, value: unknown[]): unknown {
    const out: unknown[] = [];
    for (const item of value) {
      const data = this.walk(element, item);
      if (data === GIVE_UP) return GIVE_UP;
      out.push(data);
    }
    return out;
  }

  /** A strict object, as zod's $ZodObject builds it: the keys present, in the shape's order. */
  private walkObject(step: Step, value: Record<string, unknown>): unknown {
    // zod reports unknown keys by `for ... in`; plain objects only, so own keys are all of them.
    // (Only the keys written are visited: a VM's shape has ~70 keys, its disks' ~60 slots.)
    const present: number[] = [];
    let required = 0;
    for (const key in value) {
      const index = step.index.get(key);
      if (index === undefined) return GIVE_UP;
      if (step.required[index]) required++;
      present.push(index);
    }
    // A required key's absence is zod's to word.
    if (required !== step.requiredCount) return GIVE_UP;
    // Usually written in the shape's order already; insertion sort is then one pass.
    sortNumbers(present);
    const shape = (step.schema._zod.def as Def).shape as Record<string, Schema>;
    const out: Record<string, unknown> = {};
    for (const index of present) {
      const key = step.keys[index] as string;
      let field = step.fields[index];
      if (!field) {
        field = this.stepOf(shape[key] as Schema);
        step.fields[index] = field;
      }
      const data = this.walk(field, value[key]);
      if (data === GIVE_UP) return GIVE_UP;
      // zod keeps a present key whose data is undefined; YAML gives none, but be exact.
      out[key] = data;
    }
    return out;
  }

  /** Any other schema judges the whole value; zod runs once per distinct value. */
  private leaf(step: Step, value: unknown): unknown {
    // A Map tells primitives apart by type already (SameValueZero), except -0 from 0: -0 is
    // checked each time. Composite values are keyed by their text, in a map of their own.
    let remembered: Map<unknown, unknown> | undefined;
    let key: unknown = value;
    if (typeof value === "object" && value !== null) {
      key = valueKey(value);
      if (key === undefined) return GIVE_UP;
      remembered = step.composites;
    } else if (!isPrimitiveData(value)) {
      return GIVE_UP;
    } else if (!Object.is(value, -0)) {
      remembered = step.primitives;
    }
    if (remembered?.has(key)) return copyData(remembered.get(key));
    const result = (step.schema as z.ZodType).safeParse(value, { jitless: true });
    if (!result.success) return GIVE_UP;
    if (remembered) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, result.data);
    }
    return copyData(result.data);
  }
}

/** What the walk does with `schema`: anything with checks of its own, or not strict, is a leaf. */
function makeStep(schema: Schema): Step {
  const def = schema._zod.def as Def;
  if (def.checks !== undefined && def.checks.length > 0) return new Step(schema, "leaf");
  if (def.type === "optional" && def.innerType) return new Step(schema, "optional");
  if (def.type === "array" && def.element) return new Step(schema, "array");
  if (def.type !== "object" || !def.shape || def.catchall?._zod.def.type !== "never") return new Step(schema, "leaf");
  const step = new Step(schema, "object");
  const shape = def.shape;
  step.keys = Object.keys(shape);
  step.index = new Map(step.keys.map((key, i) => [key, i]));
  step.fields = step.keys.map(() => undefined);
  step.required = step.keys.map((key) => {
    const field = (shape[key] as Schema)._zod;
    return field.optin !== "optional" || field.optout !== "optional";
  });
  step.requiredCount = step.required.filter(Boolean).length;
  return step;
}

function isPrimitiveData(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A key that is equal for two values only when they are the same data, types included (1 and
 * "1", -0 and 0, NaN and null differ; map keys in their written order); undefined for anything
 * that is not plain data.
 */
export function valueKey(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return `s${value}`;
    case "number":
      return Object.is(value, -0) ? "n-0" : `n${value}`;
    case "boolean":
      return value ? "t" : "f";
    case "object":
      if (value === null) return "z";
      // Composite values are rare leaves (unions of a word or a map): JSON words their structure.
      return plainData(value) ? `j${JSON.stringify(value, tagNumbers)}` : undefined;
    default:
      return undefined;
  }
}

/** JSON writes NaN, Infinity and null alike and -0 as 0: numbers are written as tagged text. */
function tagNumbers(_key: string, value: unknown): unknown {
  return typeof value === "number" ? (Object.is(value, -0) ? "n-0" : `n${value}`) : typeof value === "string" ? `s${value}` : value;
}

function plainData(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return true;
    case "object":
      if (Array.isArray(value)) return value.every(plainData);
      // A `__proto__` key would set a copy's prototype instead of making a key.
      return isPlainObject(value) && !Object.hasOwn(value, "__proto__") && Object.values(value).every(plainData);
    default:
      return false;
  }
}

/** A fresh copy of remembered data: each place gets its own objects, as from its own zod run. */
function copyData(data: unknown): unknown {
  if (data === null || typeof data !== "object") return data;
  if (Array.isArray(data)) return data.map(copyData);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = copyData(value);
  return out;
}
