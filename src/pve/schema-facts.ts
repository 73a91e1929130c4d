// Facts derived once per property-string sub-schema (sorted keys, default key, key aliases)
// and cached, because the same few schemas are used for every drive and NIC of every guest.
import type { SubSchema } from "../schema/types.js";

export interface SubSchemaFacts {
  sortedKeys: string[];
  defaultKey: string | undefined;
  /** key alias -> the key whose value it combines with when printing (model -> macaddr). */
  keyAliases: Map<string, string>;
}

const cache = new WeakMap<SubSchema, SubSchemaFacts>();

export function factsOf(schema: SubSchema): SubSchemaFacts {
  let facts = cache.get(schema);
  if (!facts) {
    const keyAliases = new Map<string, string>();
    let defaultKey: string | undefined;
    for (const [key, entry] of Object.entries(schema)) {
      if (entry.default_key && defaultKey === undefined) defaultKey = key;
      if (entry.keyAlias && entry.alias) keyAliases.set(entry.keyAlias, entry.alias);
    }
    facts = { sortedKeys: Object.keys(schema).sort(), defaultKey, keyAliases };
    cache.set(schema, facts);
  }
  return facts;
}
