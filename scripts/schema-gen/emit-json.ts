// Deterministic JSON text for the generated files: object keys sorted (arrays keep their
// order, which carries meaning in `enum` and permission `check` lists), one endpoint or
// format per line so a schema update gives a readable diff.

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** `{"<key>": [one item per line], ...}` with the other top-level fields first. */
export function jsonWithListPerLine(header: Record<string, unknown>, listKey: string, items: unknown[]): string {
  const head = Object.keys(header)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(header[k])}`);
  const body = items.map((item) => stableJson(item)).join(",\n");
  return `{${head.join(",\n")},\n${JSON.stringify(listKey)}:[\n${body}\n]}\n`;
}

/** `{"<key>": {name: value per line}, ...}`. */
export function jsonWithMapPerLine(header: Record<string, unknown>, mapKey: string, map: Record<string, unknown>): string {
  const head = Object.keys(header)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(header[k])}`);
  const body = Object.keys(map)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(map[k])}`)
    .join(",\n");
  return `{${head.join(",\n")},\n${JSON.stringify(mapKey)}:{\n${body}\n}}\n`;
}
