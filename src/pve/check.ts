// PVE's value checks (pve-common JSONSchema.pm check_prop / check_type / check_object /
// check_format), reproduced with PVE's exact messages and order: type, format, pattern,
// maxLength, minLength, maximum, minimum, enum. Errors are collected into a map keyed by
// parameter path (`net0`, `net0.tag`), as in PVE's 400 `errors` object.
import { getFormat } from "../schema/index.js";
import type { ParamSchema, SubSchema } from "../schema/types.js";
import { codeFormatValidator, FormatViolation } from "./code-formats.js";
import { PropertySyntaxError, splitPropertyString } from "./property-syntax.js";
import { factsOf } from "./schema-facts.js";
import { splitList } from "./tags.js";

export type Errors = Record<string, string>;

/** Adds a message; a second message for the same path is joined with a literal `\n` (two characters), like PVE. */
export function addError(errors: Errors, path: string, message: string): void {
  const key = path || "_root";
  errors[key] = errors[key] === undefined ? message : `${errors[key]}\\n${message}`;
}

const NUMBER_RE = /^[+-]?(?:\d+\.\d+|\d+\.|\.\d+|\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER_RE = /^[+-]?\d+$/;

export function isPveNumber(text: string): boolean {
  return NUMBER_RE.test(text);
}

export function isPveInteger(text: string): boolean {
  return INTEGER_RE.test(text);
}

const patternCache = new Map<string, RegExp | null>();

// Anchored as PVE does (`m/^$pattern$/`, no group added). A pattern JavaScript cannot
// compile is not enforced rather than rejecting every value.
function compiledPattern(pattern: string): RegExp | null {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    const source = pattern.replace(/\(\?\^:/g, "(?:").replace(/\{,(\d+)\}/g, "{0,$1}");
    try {
      re = new RegExp(`^${source}$`);
    } catch {
      re = null;
    }
    patternCache.set(pattern, re);
  }
  return re;
}

/** Perl's view of a value: scalars become strings (JSON booleans 1/0), references keep their kind. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  return undefined;
}

function refKind(value: unknown): string {
  return Array.isArray(value) ? "ARRAY" : "HASH";
}

/** Checks one value against its schema, adding PVE's messages to `errors`. Returns true when valid. */
export function checkProp(value: unknown, schema: ParamSchema, path: string, errors: Errors): boolean {
  const before = Object.keys(errors).length;
  checkPropInner(value, schema, path, errors);
  return Object.keys(errors).length === before && !(path in errors);
}

function checkPropInner(value: unknown, schema: ParamSchema, path: string, errors: Errors): void {
  if (value === undefined || value === null) {
    if (schema.type === "null") return;
    if (!schema.optional && !schema.alias) addError(errors, path, "property is missing and it is not optional");
    return;
  }
  const type = schema.type;
  const text = scalarText(value);

  if (text === undefined) {
    if (type === "array" && Array.isArray(value)) {
      const items = schema.items;
      if (items) {
        value.forEach((item, i) => {
          checkPropInner(item, items, `${path}[${i}]`, errors);
        });
      }
      return;
    }
    if (type === "object" && !Array.isArray(value)) {
      checkObject(value as Record<string, unknown>, schema.properties ?? {}, path, errors, schema.additionalProperties);
      return;
    }
    if (type && type !== "any") {
      addError(errors, path, `type check ('${type}') failed - got ${refKind(value)}`);
    }
    return;
  }

  if (type === "array" || type === "object") {
    addError(errors, path, `type check ('${type}') failed`);
    return;
  }
  if (type === "boolean" && text !== "1" && text !== "0") {
    addError(errors, path, `type check ('boolean') failed - got '${text}'`);
    return;
  }
  if (type === "integer" && !isPveInteger(text)) {
    addError(errors, path, `type check ('integer') failed - got '${text}'`);
    return;
  }
  if (type === "number" && !isPveNumber(text)) {
    addError(errors, path, `type check ('number') failed - got '${text}'`);
    return;
  }
  if (type === "null") {
    addError(errors, path, "type check ('null') failed - value is not null");
    return;
  }

  if (schema.format !== undefined) {
    try {
      checkFormat(schema.format, text, path);
    } catch (err) {
      if (!(err instanceof FormatViolation)) throw err;
      addError(errors, path, `invalid format - ${err.pveText}`);
      return;
    }
  }
  if (schema.pattern !== undefined) {
    const re = compiledPattern(schema.pattern);
    if (re && !re.test(text)) {
      addError(errors, path, "value does not match the regex pattern");
      return;
    }
  }
  if (schema.maxLength !== undefined && [...text].length > schema.maxLength) {
    addError(errors, path, `value may only be ${schema.maxLength} characters long`);
    return;
  }
  if (schema.minLength !== undefined && [...text].length < schema.minLength) {
    addError(errors, path, `value must be at least ${schema.minLength} characters long`);
    return;
  }
  if (isPveNumber(text)) {
    const n = Number(text);
    if (schema.maximum !== undefined && n > Number(schema.maximum)) {
      addError(errors, path, `value must have a maximum value of ${schema.maximum}`);
      return;
    }
    if (schema.minimum !== undefined && n < Number(schema.minimum)) {
      addError(errors, path, `value must have a minimum value of ${schema.minimum}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.includes(text)) {
    addError(errors, path, `value '${text}' does not have a value in the enumeration '${schema.enum.join(", ")}'`);
  }
}

/**
 * Checks an object against its properties (check_object): every declared property, then
 * `requires`, then properties the schema does not declare (refused when
 * `additionalProperties` is false; left alone when it is undefined).
 */
export function checkObject(
  values: Record<string, unknown>,
  schema: SubSchema,
  path: string,
  errors: Errors,
  additionalProperties?: boolean | ParamSchema,
): void {
  const sub = (key: string): string => (path ? `${path}.${key}` : key);
  for (const key of factsOf(schema).sortedKeys) {
    checkPropInner(values[key], schema[key] as ParamSchema, sub(key), errors);
  }
  for (const key of Object.keys(values).sort()) {
    if (values[key] === undefined) continue;
    const entry = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (entry) {
      if (entry.requires && values[entry.requires] === undefined) {
        addError(errors, sub(entry.requires), `missing property - '${sub(key)}' requires this property`);
      }
      continue;
    }
    if (additionalProperties === false) {
      addError(errors, sub(key), "property is not defined in schema and the schema does not allow additional properties");
    } else if (typeof additionalProperties === "object") {
      checkPropInner(values[key], additionalProperties, sub(key), errors);
    }
  }
}

/** PVE's stringified exception for failed property-string checks: "format error\n" plus one line per error. */
export function formatErrorText(errors: Errors): string {
  const lines = Object.keys(errors)
    .sort()
    .map((key) => `${key}: ${errors[key]}\n`);
  return `format error\n${lines.join("")}`;
}

/**
 * Checks a property string against its sub-schema. Returns the raw values by key;
 * throws FormatViolation with PVE's text on a syntax error or failed value checks.
 */
export function checkPropertyString(text: string, schema: SubSchema, path: string): Record<string, string> {
  let values: Record<string, string>;
  try {
    values = splitPropertyString(text, schema);
  } catch (err) {
    if (err instanceof PropertySyntaxError) throw new FormatViolation(err.message);
    throw err;
  }
  const errors: Errors = {};
  checkObject(values, schema, path, errors, false);
  if (Object.keys(errors).length > 0) throw new FormatViolation("format error", formatErrorText(errors), errors);
  return values;
}

/**
 * check_format: an inline sub-schema or a named property-string format is parsed as a
 * property string; a code format (with PVE's `-list` / `-opt` suffixes) runs its validator.
 * Unknown code formats are accepted.
 */
export function checkFormat(format: string | SubSchema, value: string, path: string): void {
  if (typeof format !== "string") {
    checkPropertyString(value, format, path);
    return;
  }
  if (format === "regex") return;
  const named = getFormat(format);
  if (named) {
    checkPropertyString(value, named, path);
    return;
  }
  const m = /^(.*?)(?:-(list|opt))?$/.exec(format) as RegExpExecArray;
  const validator = codeFormatValidator(m[1] as string);
  if (!validator) return;
  if (m[2] === "list") {
    for (const item of splitList(value)) validator(item);
  } else if (m[2] === "opt") {
    if (value !== "" && value !== "0") validator(value);
  } else {
    validator(value);
  }
}
