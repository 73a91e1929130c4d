// Lookups in plain-object tables keyed by text a user wrote. `table[key]` would find
// Object.prototype's members for keys like `constructor`, `toString` or `__proto__` and print
// them ("function Object() { [native code] }"); only the table's own entries count.

/** The table's own entry for `key`, never an inherited member. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: PropertyKey): V | undefined {
  return Object.hasOwn(table, key) ? table[key as string] : undefined;
}

/**
 * A copy of parsed YAML without `__proto__` keys, and where they were. Schema checks build new
 * objects from the input, where `__proto__` would set a prototype instead of making a key, so
 * such a key would vanish without a word; it is taken out here and reported by the caller.
 */
export function withoutProtoKeys(
  data: unknown,
  found: Array<ReadonlyArray<string | number>>,
  path: ReadonlyArray<string | number> = [],
): unknown {
  // Almost no file has one: looking first spares copying a large spec (time and garbage).
  return hasProtoKey(data) ? copyWithoutProtoKeys(data, found, path) : data;
}

function hasProtoKey(data: unknown): boolean {
  if (data === null || typeof data !== "object") return false;
  if (Array.isArray(data)) return data.some(hasProtoKey);
  if (Object.hasOwn(data, "__proto__")) return true;
  for (const key in data) if (Object.hasOwn(data, key) && hasProtoKey((data as Record<string, unknown>)[key])) return true;
  return false;
}

function copyWithoutProtoKeys(data: unknown, found: Array<ReadonlyArray<string | number>>, path: ReadonlyArray<string | number>): unknown {
  if (data === null || typeof data !== "object") return data;
  if (Array.isArray(data)) return data.map((item, i) => copyWithoutProtoKeys(item, found, [...path, i]));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === "__proto__") found.push([...path, key]);
    else copy[key] = copyWithoutProtoKeys(value, found, [...path, key]);
  }
  return copy;
}
