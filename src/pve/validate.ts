// Parameter validation as PVE's API server does it before any handler runs
// (JSONSchema.pm validate + RESTHandler's list normalisation), shared by the simulator
// (which answers 400 "Parameter verification failed." with these `errors`) and the spec
// loader. Messages are PVE's, byte for byte, including the trailing newline PVE keeps on
// `invalid format - ...` messages.
import { paramSchema } from "../schema/index.js";
import type { EndpointSchema, ParamSchema } from "../schema/types.js";
import { addError, checkProp, type Errors } from "./check.js";
import { parsePveBoolean } from "./property-syntax.js";

export type RawParam = string | string[] | number | boolean | undefined;
/** Validated values: booleans as 1|0, integers and numbers as numbers, arrays kept for array-typed params. */
export type ParamValue = string | number | string[];

export interface ValidateOptions {
  /** Keep parameters the endpoint does not declare instead of reporting them. */
  allowUnknown?: boolean;
  /**
   * Accept yes|no|on|off|true|false (any case) for boolean parameters. PVE's API does NOT
   * (`type check ('boolean') failed - got 'true'`), so the simulator leaves this off; the
   * spec loader may turn it on for human-written files.
   */
  lenientBooleans?: boolean;
}

export interface ValidationResult {
  values: Record<string, ParamValue>;
  /** Parameter name (or `name.subkey`) -> PVE's message. Empty when everything is valid. */
  errors: Errors;
}

const UNKNOWN_PARAM = "property is not defined in schema and the schema does not allow additional properties";
const MISSING_PARAM = "property is missing and it is not optional";

/** Prepares a raw value the way PVE sees it: `-list` arrays joined with `,`, optional lenient booleans. */
function prepare(value: RawParam, schema: ParamSchema, options: ValidateOptions): unknown {
  if (Array.isArray(value) && schema.type !== "array" && typeof schema.format === "string" && schema.format.endsWith("-list")) {
    return value.join(",");
  }
  if (options.lenientBooleans && schema.type === "boolean" && typeof value === "string") {
    const flag = parsePveBoolean(value);
    if (flag !== undefined) return String(flag);
  }
  return value;
}

function coerce(value: unknown, schema: ParamSchema): ParamValue {
  if (Array.isArray(value)) return value.map((item) => String(item));
  if (typeof value === "boolean") return value ? 1 : 0;
  if (schema.type === "boolean" || schema.type === "integer" || schema.type === "number") return Number(value);
  return String(value);
}

/** Validates a request's merged parameters (path, query and body) against an endpoint. */
export function validateParams(endpoint: EndpointSchema, raw: Record<string, RawParam>, options: ValidateOptions = {}): ValidationResult {
  const errors: Errors = {};
  const values: Record<string, ParamValue> = {};
  for (const name of Object.keys(raw).sort()) {
    const value = raw[name];
    // A JSON `null` counts as not given.
    if (value === undefined || value === null) continue;
    const schema = paramSchema(endpoint, name);
    if (!schema) {
      if (options.allowUnknown) values[name] = coerce(value, {});
      else addError(errors, name, UNKNOWN_PARAM);
      continue;
    }
    const prepared = prepare(value, schema, options);
    if (checkProp(prepared, schema, name, errors)) values[name] = coerce(prepared, schema);
    if (schema.requires && (raw[schema.requires] === undefined || raw[schema.requires] === null)) {
      addError(errors, schema.requires, `missing property - '${name}' requires this property`);
    }
  }
  for (const [name, schema] of Object.entries(endpoint.params)) {
    if (schema.index || schema.optional || schema.alias) continue;
    if (raw[name] === undefined || raw[name] === null) addError(errors, name, MISSING_PARAM);
  }
  return { values, errors };
}

export interface ValueResult {
  value?: ParamValue;
  /** PVE's message when the value is refused. */
  error?: string;
}

/** Validates one value against one parameter schema (e.g. a guest config key). */
export function validateValue(schema: ParamSchema, value: RawParam, name = "value", options: ValidateOptions = {}): ValueResult {
  if (value === undefined) return schema.optional ? {} : { error: MISSING_PARAM };
  const errors: Errors = {};
  const prepared = prepare(value, schema, options);
  if (!checkProp(prepared, schema, name, errors)) {
    return {
      error: Object.entries(errors)
        .map(([path, message]) => (path === name ? message : `${path}: ${message}`))
        .join("\n"),
    };
  }
  return { value: coerce(prepared, schema) };
}

/** Validates one parameter of an endpoint by its concrete name (`net3`, `scsi0`, `onboot`). */
export function validateParam(endpoint: EndpointSchema, name: string, value: RawParam, options: ValidateOptions = {}): ValueResult {
  const schema = paramSchema(endpoint, name);
  if (!schema) return { error: UNKNOWN_PARAM };
  return validateValue(schema, value, name, options);
}
