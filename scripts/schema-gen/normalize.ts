// Turns one raw schema node of PVE's API dump into a facts-only ParamSchema.
// Prose keys (description, typetext, title ...) are dropped; Perl-isms are normalised
// (0/1 and "1" flags -> booleans, numeric strings -> numbers, Perl regexes -> JS sources).
// An unknown key makes the generator fail, so a schema update cannot slip prose or a new
// keyword through unnoticed.

import type { ParamSchema, ParamType, SubSchema } from "../../src/schema/types.js";
import { perlRegexToJs } from "./perl-regex.js";

export type Raw = Record<string, unknown>;

/** Keys that only carry prose or UI hints (AGPL text or display only): never copied. */
const PROSE_KEYS = new Set(["description", "verbose_description", "format_description", "typetext", "title", "renderer", "links"]);

/**
 * Keys PVE's JSONSchema does not know and therefore never enforces (`min`/`max` on
 * cluster options next-id): dropped so nobody validates against a rule PVE ignores.
 */
const IGNORED_KEYS = new Set(["min", "max"]);

const PARAM_TYPES = new Set<ParamType>(["string", "integer", "number", "boolean", "array", "object", "null", "any"]);

const TRUE_WORDS = new Set(["1", "on", "yes", "true"]);
const FALSE_WORDS = new Set(["0", "off", "no", "false"]);

export interface NormalizeContext {
  /** Where we are, for error messages: "PUT /nodes/{node}/qemu/{vmid}/config params.net[n]". */
  where: string;
  /** Index range of an indexed key (`net[n]`) at this position, or undefined when unknown. */
  indexRange?: (key: string, where: string) => { min: number; max: number } | undefined;
  /** Called for every fact deliberately dropped, so the generator can report them. */
  dropped: (where: string, what: string) => void;
}

export function isRecord(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function flag(value: unknown, where: string): boolean {
  if (value === 1 || value === "1" || value === true) return true;
  if (value === 0 || value === "0" || value === false) return false;
  throw new Error(`${where}: expected a 0/1 flag, got ${JSON.stringify(value)}`);
}

function numeric(value: unknown, where: string): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  throw new Error(`${where}: expected a number, got ${JSON.stringify(value)}`);
}

/** PVE booleans are 0/1 on the wire; defaults given as words become 0/1, prose is dropped. */
function normalizeDefault(raw: unknown, type: ParamType | undefined, ctx: NormalizeContext): string | number | undefined {
  // `default: null` (qemu keyboard) means "no default".
  if (raw === null) return undefined;
  if (type === "boolean") {
    const word = String(raw).toLowerCase();
    if (TRUE_WORDS.has(word)) return 1;
    if (FALSE_WORDS.has(word)) return 0;
    ctx.dropped(ctx.where, `non-boolean default ${JSON.stringify(raw)}`);
    return undefined;
  }
  if (type === "integer" || type === "number") {
    if (typeof raw === "number") return raw;
    if (typeof raw === "string" && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    ctx.dropped(ctx.where, `non-numeric default ${JSON.stringify(raw)}`);
    return undefined;
  }
  if (typeof raw === "string" || typeof raw === "number") return raw;
  throw new Error(`${ctx.where}: unexpected default ${JSON.stringify(raw)}`);
}

function normalizeType(raw: unknown, ctx: NormalizeContext, out: ParamSchema): void {
  if (typeof raw !== "string") throw new Error(`${ctx.where}: type is not a string`);
  // The registry gives `type: "ip"` for pve-sdn-dhcp-range keys: a string with format ip.
  if (raw === "ip") {
    out.type = "string";
    out.format = "ip";
    return;
  }
  if (!PARAM_TYPES.has(raw as ParamType)) throw new Error(`${ctx.where}: unknown type ${raw}`);
  out.type = raw as ParamType;
}

export function normalizeProperties(raw: unknown, ctx: NormalizeContext): Record<string, ParamSchema> {
  if (!isRecord(raw)) throw new Error(`${ctx.where}: properties is not an object`);
  const out: Record<string, ParamSchema> = {};
  for (const key of Object.keys(raw).sort()) {
    const where = `${ctx.where}.${key}`;
    const schema = normalizeSchema(raw[key], { ...ctx, where });
    if (key.endsWith("[n]")) {
      const range = ctx.indexRange?.(key, where);
      if (!range) throw new Error(`${where}: indexed key without a known index range`);
      schema.index = range;
    }
    out[key] = schema;
  }
  return out;
}

export function normalizeSubSchema(raw: unknown, ctx: NormalizeContext): SubSchema {
  // Property-string keys never use [n]; no index ranges apply inside them.
  return normalizeProperties(raw, { ...ctx, indexRange: undefined });
}

export function normalizeSchema(raw: unknown, ctx: NormalizeContext): ParamSchema {
  if (!isRecord(raw)) throw new Error(`${ctx.where}: schema is not an object`);
  const out: ParamSchema = {};
  if ("type" in raw) normalizeType(raw.type, ctx, out);
  for (const key of Object.keys(raw).sort()) {
    const value = raw[key];
    if (PROSE_KEYS.has(key) || key === "type") continue;
    if (IGNORED_KEYS.has(key)) {
      ctx.dropped(ctx.where, `unenforced keyword ${key}=${JSON.stringify(value)}`);
      continue;
    }
    switch (key) {
      case "optional":
        if (flag(value, ctx.where)) out.optional = true;
        break;
      case "default_key":
        if (flag(value, ctx.where)) out.default_key = true;
        break;
      case "default": {
        const normalized = normalizeDefault(value, out.type, ctx);
        if (normalized !== undefined) out.default = normalized;
        break;
      }
      case "minimum":
      case "maximum":
      case "minLength":
      case "maxLength":
        out[key] = numeric(value, `${ctx.where}.${key}`);
        break;
      case "enum":
        // `enum: null` (download-url compression) means "no enumeration".
        if (value === null) {
          ctx.dropped(ctx.where, "enum null");
          break;
        }
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
          throw new Error(`${ctx.where}: enum is not a list of strings`);
        }
        out.enum = [...value];
        break;
      case "pattern":
        if (typeof value !== "string") throw new Error(`${ctx.where}: pattern is not a string`);
        out.pattern = perlRegexToJs(value);
        break;
      case "format":
        if (typeof value === "string") {
          if (out.format === undefined) out.format = value;
        } else {
          out.format = normalizeSubSchema(value, { ...ctx, where: `${ctx.where}.format` });
        }
        break;
      case "items":
        out.items = normalizeSchema(value, { ...ctx, where: `${ctx.where}[]`, indexRange: undefined });
        break;
      case "properties":
        out.properties = normalizeProperties(value, { ...ctx, where: `${ctx.where}` });
        break;
      case "additionalProperties":
        out.additionalProperties = isRecord(value)
          ? normalizeSchema(value, { ...ctx, where: `${ctx.where}.additionalProperties`, indexRange: undefined })
          : flag(value, ctx.where);
        break;
      case "alias":
      case "keyAlias":
      case "requires":
      case "type-property":
        if (typeof value !== "string") throw new Error(`${ctx.where}: ${key} is not a string`);
        if (key === "type-property") out.typeProperty = value;
        else out[key] = value;
        break;
      case "instance-types":
        if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
          throw new Error(`${ctx.where}: instance-types is not a list of strings`);
        }
        out.instanceTypes = [...value];
        break;
      case "oneOf":
        if (!Array.isArray(value)) throw new Error(`${ctx.where}: oneOf is not a list`);
        out.oneOf = value.map((v, i) => normalizeSchema(v, { ...ctx, where: `${ctx.where}.oneOf[${i}]`, indexRange: undefined }));
        break;
      default:
        throw new Error(`${ctx.where}: unknown schema keyword ${key}`);
    }
  }
  return out;
}
