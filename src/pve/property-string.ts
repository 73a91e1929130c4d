// Typed parsing and printing of PVE property strings from a sub-schema.
//
// Representation of parsed values (one rule for every key):
//   boolean keys -> true / false     (input spellings 1|on|yes|true and 0|off|no|false)
//   integer and number keys -> number (or, with `numbersAsText`, the text as written: PVE
//   keeps `rate=50.0` as written, and so must anything that prints a value back)
//   `disk-size` keys (size=32G) -> number of bytes
//   everything else -> string, as written
// Printing follows PVE's print_property_string: the default key first (bare value, or the
// `model=mac` key-alias combination such as `virtio=BC:24:11:AA:BB:CC`), then required keys
// sorted, then the remaining keys sorted; booleans print as 1/0 and sizes via formatSize.
import type { ParamSchema, SubSchema } from "../schema/types.js";
import { addError, checkObject, checkPropertyString, type Errors, formatErrorText } from "./check.js";
import { FormatViolation } from "./code-formats.js";
import { PveFormatError } from "./errors.js";
import { factsOf } from "./schema-facts.js";
import { formatSize, parseSize } from "./size.js";

export type PropertyValue = string | number | boolean;
export type PropertyValues = Record<string, PropertyValue>;

/** A property string that PVE would refuse; `errors` has one entry per bad key (`net0.tag`). */
export class PropertyStringError extends PveFormatError {
  readonly errors: Errors;

  constructor(what: string, input: string, pveText: string, errors: Errors) {
    super(what, input, pveText.trimEnd(), "Check the key names and values against this option's format in the PVE API schema.");
    this.name = "PropertyStringError";
    this.errors = errors;
  }

  override userMessage(): string {
    const details = Object.keys(this.errors).length
      ? Object.entries(this.errors)
          .map(([key, message]) => `${key}: ${message.trimEnd()}`)
          .join("; ")
      : this.pveMessage;
    return `invalid ${this.what} '${this.input}': ${details}. ${this.hint}`;
  }
}

function isDiskSize(entry: ParamSchema | undefined): boolean {
  return entry?.format === "disk-size";
}

function describe(key: string | undefined): string {
  return key ? `property string for ${key}` : "property string";
}

/**
 * Parses a property string into typed values (see the representation above).
 * `key` (e.g. "net0") prefixes error paths as PVE does (`net0.tag`).
 * Throws PropertyStringError with PVE's messages.
 */
export function parsePropertyString(text: string, schema: SubSchema, key?: string, options: ParseOptions = {}): PropertyValues {
  let raw: Record<string, string>;
  try {
    raw = checkPropertyString(text, schema, key ?? "");
  } catch (err) {
    if (err instanceof FormatViolation) throw new PropertyStringError(describe(key), text, err.pveText, err.errors);
    throw err;
  }
  const values: PropertyValues = {};
  for (const [name, value] of Object.entries(raw)) values[name] = typedValue(value, schema[name], options);
  return values;
}

export interface ParseOptions {
  /** Keep integer and number values as the text written (for parse-and-print round trips). */
  numbersAsText?: boolean;
}

function typedValue(value: string, entry: ParamSchema | undefined, options: ParseOptions): PropertyValue {
  if (entry?.type === "boolean") return value === "1";
  if (entry?.type === "integer" || entry?.type === "number") return options.numbersAsText ? value : Number(value);
  if (isDiskSize(entry)) return parseSize(value);
  return value;
}

/** The wire text of one typed value. */
function valueText(name: string, value: PropertyValue, entry: ParamSchema | undefined, errors: Errors, path: string): string | undefined {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (isDiskSize(entry)) {
    try {
      return formatSize(typeof value === "number" ? value : parseSize(value));
    } catch (err) {
      if (!(err instanceof PveFormatError)) throw err;
      addError(errors, path, `invalid format - ${err.pveMessage}\n`);
      return undefined;
    }
  }
  const text = String(value);
  if (text.includes(",")) {
    addError(errors, path, `illegal value with commas for ${name}`);
    return undefined;
  }
  return text;
}

/**
 * Prints typed (or raw string) values as PVE would write them. Values are checked against
 * the sub-schema first; undefined values are left out. `skip` names keys not to print.
 * Throws PropertyStringError when a value would not be accepted back.
 */
export function printPropertyString(
  values: Record<string, PropertyValue | undefined>,
  schema: SubSchema,
  options: { key?: string; skip?: string[] } = {},
): string {
  const path = (name: string): string => (options.key ? `${options.key}.${name}` : name);
  const errors: Errors = {};
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || options.skip?.includes(name)) continue;
    const entry = Object.hasOwn(schema, name) ? schema[name] : undefined;
    if (!entry) {
      addError(errors, path(name), `invalid key '${name}'`);
      continue;
    }
    const target = entry.alias && Object.hasOwn(schema, entry.alias) ? schema[entry.alias] : entry;
    const text = valueText(name, value, target, errors, path(name));
    if (text !== undefined) texts[name] = text;
  }
  checkObject(texts, schema, options.key ?? "", errors, undefined);
  if (Object.keys(errors).length > 0) {
    throw new PropertyStringError(describe(options.key), JSON.stringify(values), formatErrorText(errors), errors);
  }
  return orderedParts(texts, schema, options.skip ?? []).join(",");
}

function orderedParts(texts: Record<string, string>, schema: SubSchema, skip: string[]): string[] {
  const done = new Set(skip);
  const parts: string[] = [];
  const { keyAliases: combines, defaultKey } = factsOf(schema);
  const add = (name: string, isDefault: boolean): void => {
    if (done.has(name)) return;
    done.add(name);
    const text = texts[name];
    if (text === undefined) return;
    const partner = combines.get(name);
    if (partner !== undefined && texts[partner] !== undefined) {
      parts.push(`${text}=${texts[partner]}`);
      done.add(partner);
      return;
    }
    parts.push(isDefault ? text : `${name}=${text}`);
  };
  if (defaultKey !== undefined) add(defaultKey, true);
  const names = Object.keys(texts).sort();
  for (const name of names) {
    const entry = schema[name];
    if (entry && !entry.optional) add(name, false);
  }
  for (const name of names) add(name, false);
  return parts;
}
