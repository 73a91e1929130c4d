// Turns a request body into a row, field by field, with Django REST framework's messages
// for bad values and NetBox's messages for related objects that cannot be resolved.
import { addError, badRequest, type FieldErrors, hasErrors } from "./errors.js";
import type { FieldSpec, ResourceDef, SimContext } from "./resource.js";
import type { Row } from "./store.js";

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Python-ish repr, as NetBox prints attribute dicts in its messages. */
function pyRepr(v: unknown): string {
  if (typeof v === "string") return `'${v}'`;
  if (isRecord(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `'${k}': ${pyRepr(x)}`)
      .join(", ")}}`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

/** Resolves a related object written as a numeric id or as attributes matching exactly one object. */
export function resolveRelated(ctx: SimContext, target: string, value: unknown): number | string {
  const rows = ctx.store.rows(ctx.def(target).path);
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) {
    const id = Number(value);
    return rows.some((r) => r.id === id) ? id : `Related object not found using the provided numeric ID: ${id}`;
  }
  if (isRecord(value)) {
    const matches = rows.filter((r) => Object.entries(value).every(([k, v]) => String(r[k] ?? "") === String(v)));
    if (matches.length === 1 && matches[0]) return matches[0].id;
    return matches.length === 0
      ? `Related object not found using the provided attributes: ${pyRepr(value)}`
      : `Multiple objects match the provided attributes: ${pyRepr(value)}`;
  }
  return `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pyRepr(value)}`;
}

function parseNumber(spec: FieldSpec & { min?: number; max?: number }, raw: unknown, integer: boolean): number | string {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  if (typeof n !== "number" || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
    return integer ? "A valid integer is required." : "A valid number is required.";
  if (spec.min !== undefined && n < spec.min) return `Ensure this value is greater than or equal to ${spec.min}.`;
  if (spec.max !== undefined && n > spec.max) return `Ensure this value is less than or equal to ${spec.max}.`;
  return n;
}

function parseCustomFields(ctx: SimContext, def: ResourceDef, raw: unknown, prev: unknown): Record<string, unknown> | string {
  if (!isRecord(raw)) return 'Expected a dictionary of items but got type "' + typeof raw + '".';
  const defined = new Map(
    ctx.store
      .rows("extras/custom-fields")
      .filter((cf) => Array.isArray(cf.object_types) && cf.object_types.includes(def.objectType))
      .map((cf) => [String(cf.name), String(cf.type)]),
  );
  const merged: Record<string, unknown> = isRecord(prev) ? { ...prev } : {};
  for (const [key, value] of Object.entries(raw)) {
    const type = defined.get(key);
    if (!type) return `Unknown field name '${key}' in custom field data.`;
    if (value !== null && value !== "") {
      if (type === "integer" && !Number.isInteger(value)) return `Invalid value for custom field '${key}': Value must be an integer.`;
      if (type === "boolean" && typeof value !== "boolean") return `Invalid value for custom field '${key}': Value must be true or false.`;
      if ((type === "text" || type === "longtext") && typeof value !== "string")
        return `Invalid value for custom field '${key}': Value must be a string.`;
    }
    merged[key] = value === "" ? null : value;
  }
  return merged;
}

function parseField(ctx: SimContext, def: ResourceDef, spec: FieldSpec, raw: unknown, prev: unknown): unknown {
  if (raw === null) {
    if (spec.nullable) return null;
    return new FieldMessage("This field may not be null.");
  }
  switch (spec.kind) {
    case "string": {
      if (typeof raw !== "string" && typeof raw !== "number") return new FieldMessage("Not a valid string.");
      const s = String(raw);
      if (s.trim() === "" && spec.required) return new FieldMessage("This field may not be blank.");
      if (spec.maxLength !== undefined && s.length > spec.maxLength)
        return new FieldMessage(`Ensure this field has no more than ${spec.maxLength} characters.`);
      return s;
    }
    case "int":
    case "number": {
      const n = parseNumber(spec, raw, spec.kind === "int");
      return typeof n === "string" ? new FieldMessage(n) : n;
    }
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return new FieldMessage("Must be a valid boolean.");
    case "choice": {
      const v = String(raw);
      if (v === "" && spec.nullable) return null;
      return spec.values.includes(v) ? v : new FieldMessage(`"${v}" is not a valid choice.`);
    }
    case "fk": {
      const r = resolveRelated(ctx, spec.target, raw);
      return typeof r === "string" ? new FieldMessage(r) : r;
    }
    case "fkList":
    case "tags": {
      if (!Array.isArray(raw))
        return new FieldMessage(`Expected a list of items but got type "${typeof raw === "string" ? "str" : typeof raw}".`);
      const target = spec.kind === "tags" ? "extras/tags" : spec.target;
      const out: number[] = [];
      for (const item of raw) {
        const r = resolveRelated(ctx, target, item);
        if (typeof r === "string") return new FieldMessage(r);
        out.push(r);
      }
      return out;
    }
    case "customFields": {
      const r = parseCustomFields(ctx, def, raw, prev);
      return typeof r === "string" ? new FieldMessage(r) : r;
    }
    case "json":
      return raw;
    case "computed":
      return undefined;
  }
}

class FieldMessage {
  constructor(readonly message: string) {}
}

/**
 * Builds the row a write would produce. `before` is the existing row (update) or undefined
 * (create); `partial` is true for PATCH. Throws a 400 with every field's messages at once.
 */
export function parseBody(ctx: SimContext, def: ResourceDef, body: unknown, before: Row | undefined, partial: boolean): Row {
  if (!isRecord(body)) {
    const got = Array.isArray(body) ? "list" : typeof body === "string" ? "str" : typeof body;
    throw badRequest({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
  }
  const errors: FieldErrors = {};
  const now = ctx.store.now();
  const row: Row = before ? { ...structuredClone(before), last_updated: now } : { id: 0, created: now, last_updated: now };
  for (const spec of def.fields) {
    if (spec.kind === "computed" || spec.readOnly) continue;
    const present = Object.hasOwn(body, spec.name);
    if (!present) {
      if (before && partial) continue;
      if (spec.required) {
        addError(errors, spec.name, "This field is required.");
        continue;
      }
      if (!before) row[spec.name] = defaultOf(spec);
      continue;
    }
    const value = parseField(ctx, def, spec, body[spec.name], before?.[spec.name]);
    // NetBox checks custom field data in the model's clean(), so it reports it under __all__.
    if (value instanceof FieldMessage) addError(errors, spec.kind === "customFields" ? "__all__" : spec.name, value.message);
    else row[spec.name] = value;
  }
  if (hasErrors(errors)) throw badRequest(errors);
  def.clean?.(row, before, ctx, errors);
  if (hasErrors(errors)) throw badRequest(errors);
  return row;
}

function defaultOf(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case "string":
      return spec.default ?? (spec.nullable ? null : "");
    case "int":
    case "number":
      return spec.default ?? null;
    case "bool":
      return spec.default;
    case "choice":
      return spec.default;
    case "fkList":
    case "tags":
      return [];
    case "customFields":
      return {};
    default:
      return null;
  }
}
