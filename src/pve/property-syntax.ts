// The syntax layer of property strings (`virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,tag=120`):
// splitting into keys and raw string values, resolving the default key, aliases and key
// aliases exactly as PVE's parse_property_string does, before any value is checked.
import type { SubSchema } from "../schema/types.js";
import { factsOf } from "./schema-facts.js";

/** A syntax error; `message` is PVE's text (without trailing newline). */
export class PropertySyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PropertySyntaxError";
  }
}

// PVE's truthy/falsy spellings inside property strings (pve-common parse_boolean).
export function parsePveBoolean(text: string): 0 | 1 | undefined {
  if (/^(?:1|on|yes|true)$/i.test(text)) return 1;
  if (/^(?:0|off|no|false)$/i.test(text)) return 0;
  return undefined;
}

/** The key written without `key=` in first position, if the sub-schema has one. */
export function defaultKeyOf(schema: SubSchema): string | undefined {
  return factsOf(schema).defaultKey;
}

/**
 * Splits a property string into raw values keyed by their real (non-alias) key names.
 * Boolean keys written as key=value have their spelling normalised to "1"/"0" (as PVE does);
 * the default key's value is kept as written. Values are not checked here.
 */
export function splitPropertyString(text: string, schema: SubSchema): Record<string, string> {
  const result: Record<string, string> = {};
  let defaultKeySeen: string | undefined;
  for (const part of text.split(",")) {
    if (/^\s*$/.test(part)) continue;
    const pair = /^([^=]+)=(.+)$/.exec(part);
    if (pair) {
      let key = pair[1] as string;
      let value = pair[2] as string;
      if (result[key] !== undefined) {
        throw new PropertySyntaxError(`duplicate key in comma-separated list property: ${key}`);
      }
      let entry = Object.hasOwn(schema, key) ? schema[key] : undefined;
      if (entry?.alias) {
        if (entry.keyAlias) {
          // `virtio=MAC`: the key itself is the value of the key alias (model=virtio).
          if (result[entry.keyAlias] !== undefined) {
            throw new PropertySyntaxError(`key alias '${entry.keyAlias}' is already defined`);
          }
          result[entry.keyAlias] = key;
        }
        key = entry.alias;
        entry = Object.hasOwn(schema, key) ? schema[key] : undefined;
      }
      if (!entry) throw new PropertySyntaxError(`invalid key in comma-separated list property: ${key}`);
      if (entry.type === "boolean") {
        const flag = parsePveBoolean(value);
        if (flag !== undefined) value = String(flag);
      }
      result[key] = value;
    } else if (!part.includes("=")) {
      if (defaultKeySeen !== undefined) {
        throw new PropertySyntaxError(`duplicate key in comma-separated list property: ${defaultKeySeen}`);
      }
      const defaultKey = defaultKeyOf(schema);
      if (defaultKey === undefined) {
        throw new PropertySyntaxError("value without key, but schema does not define a default key");
      }
      defaultKeySeen = defaultKey;
      if (result[defaultKey] !== undefined) {
        throw new PropertySyntaxError(`duplicate key in comma-separated list property: ${defaultKey}`);
      }
      result[defaultKey] = part;
    } else {
      throw new PropertySyntaxError("missing key in comma-separated list property");
    }
  }
  return result;
}
