// NetBox's list semantics: filters (repeated parameter = OR, different parameters = AND,
// lookups such as __n/__ic), `q` search, `cf_<name>`, `tag`, limit/offset pagination with
// absolute next/previous URLs, and (4.6+) `start` cursor pagination.
import { badRequest, HttpError } from "./errors.js";
import type { FieldSpec, ResourceDef, SimContext } from "./resource.js";
import type { Row } from "./store.js";

export const PAGINATE_COUNT = 50;
export const MAX_PAGE_SIZE = 1000;

export const CONTROL_PARAMS = new Set(["limit", "offset", "start", "brief", "fields", "omit", "ordering", "format", "exclude", "include"]);
export const LOOKUPS = ["n", "ic", "nic", "ie", "nie", "isw", "iew", "gt", "gte", "lt", "lte", "empty"] as const;
type Lookup = (typeof LOOKUPS)[number] | "exact";

function splitLookup(key: string): { base: string; lookup: Lookup } {
  const at = key.lastIndexOf("__");
  if (at > 0) {
    const lookup = key.slice(at + 2) as Lookup;
    if ((LOOKUPS as readonly string[]).includes(lookup)) return { base: key.slice(0, at), lookup };
  }
  return { base: key, lookup: "exact" };
}

function compare(actual: string | null, wanted: string, lookup: Lookup): boolean {
  const a = actual ?? "";
  const w = wanted;
  switch (lookup) {
    case "exact":
      return wanted === "null" ? actual === null : a === w;
    case "n":
      return wanted === "null" ? actual !== null : a !== w;
    case "ic":
      return a.toLowerCase().includes(w.toLowerCase());
    case "nic":
      return !a.toLowerCase().includes(w.toLowerCase());
    case "ie":
      return a.toLowerCase() === w.toLowerCase();
    case "nie":
      return a.toLowerCase() !== w.toLowerCase();
    case "isw":
      return a.toLowerCase().startsWith(w.toLowerCase());
    case "iew":
      return a.toLowerCase().endsWith(w.toLowerCase());
    case "gt":
      return actual !== null && Number(a) > Number(w);
    case "gte":
      return actual !== null && Number(a) >= Number(w);
    case "lt":
      return actual !== null && Number(a) < Number(w);
    case "lte":
      return actual !== null && Number(a) <= Number(w);
    case "empty":
      return (a === "") === (w === "true");
  }
}

/** Negated lookups AND their values; the others OR them, as django-filter does. */
function matchAny(actuals: (string | null)[], values: string[], lookup: Lookup): boolean {
  const negated = lookup === "n" || lookup === "nic" || lookup === "nie";
  const test = (v: string) => actuals.some((a) => compare(a, v, lookup));
  if (negated) return values.every((v) => actuals.every((a) => compare(a, v, lookup)));
  return values.some(test);
}

const invalidChoice = (key: string, value: string) =>
  badRequest({ [key]: [`Select a valid choice. ${value} is not one of the available choices.`] });

function relatedKey(ctx: SimContext, target: string, id: unknown): string | null {
  if (typeof id !== "number") return null;
  const def = ctx.def(target);
  const row = ctx.store.get(def.path, id);
  return row ? String(row[def.lookupField ?? "name"] ?? "") : null;
}

function relatedExists(ctx: SimContext, target: string, value: string, byId: boolean): boolean {
  const def = ctx.def(target);
  if (byId) return /^\d+$/.test(value) && ctx.store.get(def.path, Number(value)) !== undefined;
  return ctx.store.rows(def.path).some((r) => String(r[def.lookupField ?? "name"] ?? "") === value);
}

function fieldFilter(
  ctx: SimContext,
  spec: FieldSpec,
  key: string,
  byId: boolean,
  lookup: Lookup,
  values: string[],
): (row: Row) => boolean {
  if (spec.kind === "choice" && lookup === "exact") {
    for (const v of values) if (v !== "null" && !spec.values.includes(v)) throw invalidChoice(key, v);
  }
  if (spec.kind === "fk" || spec.kind === "fkList") {
    // django-filter's model choice filters reject values that match no object.
    for (const v of values) if (v !== "null" && !relatedExists(ctx, spec.target, v, byId)) throw invalidChoice(key, v);
    return (row) => {
      const raw = row[spec.name];
      const list = spec.kind === "fkList" ? (Array.isArray(raw) ? raw : []) : [raw ?? null];
      const actuals = list.map((id) => (byId ? (id === null ? null : String(id)) : relatedKey(ctx, spec.target, id)));
      return matchAny(actuals.length ? actuals : [null], values, lookup);
    };
  }
  return (row) => {
    const raw = row[spec.name];
    return matchAny([raw === null || raw === undefined ? null : String(raw)], values, lookup);
  };
}

function buildFilter(ctx: SimContext, def: ResourceDef, key: string, values: string[]): ((row: Row) => boolean) | undefined {
  const custom = def.filters?.[key];
  if (custom) return (row) => custom(row, values, ctx);
  if (key === "q") {
    const q = (values[0] ?? "").toLowerCase();
    return (row) =>
      def.search.some((f) =>
        String(row[f] ?? "")
          .toLowerCase()
          .includes(q),
      );
  }
  const { base, lookup } = splitLookup(key);
  if (base === "id") {
    for (const v of values) if (!/^\d+$/.test(v)) throw badRequest({ [key]: ["Enter a number."] });
    return (row) => matchAny([String(row.id)], values, lookup);
  }
  if (base === "tag" || base === "tag_id") {
    for (const v of values) if (!relatedExists(ctx, "extras/tags", v, base === "tag_id")) throw invalidChoice(key, v);
    return (row) => {
      const tagIds = Array.isArray(row.tags) ? row.tags : [];
      const actuals = tagIds.map((id) => (base === "tag_id" ? String(id) : relatedKey(ctx, "extras/tags", id)));
      if (lookup === "n") return values.every((v) => !actuals.includes(v));
      // Repeated `tag` parameters AND together in NetBox (an object must carry every tag).
      return values.every((v) => actuals.includes(v));
    };
  }
  if (base.startsWith("cf_")) {
    const name = base.slice(3);
    return (row) => {
      const cf = row.custom_fields;
      const value = typeof cf === "object" && cf !== null ? (cf as Record<string, unknown>)[name] : undefined;
      return matchAny([value === null || value === undefined ? null : String(value)], values, lookup);
    };
  }
  // `<fk>_id` filters a relation by id; otherwise the parameter names a plain field
  // (which may itself end in _id, like assigned_object_id).
  const fk = base.endsWith("_id")
    ? def.fields.find((f) => f.name === base.slice(0, -3) && (f.kind === "fk" || f.kind === "fkList"))
    : undefined;
  const spec = fk ?? def.fields.find((f) => f.name === base);
  if (!spec || spec.kind === "computed" || spec.kind === "customFields" || spec.kind === "json") return undefined;
  return fieldFilter(ctx, spec, key, fk !== undefined, lookup, values);
}

export function filterRows(ctx: SimContext, def: ResourceDef, rows: Row[], params: URLSearchParams): Row[] {
  const filters: ((row: Row) => boolean)[] = [];
  for (const key of new Set(params.keys())) {
    if (CONTROL_PARAMS.has(key)) continue;
    const f = buildFilter(ctx, def, key, params.getAll(key));
    if (f) filters.push(f);
  }
  const ordered = [...rows].sort(def.order ?? ((a, b) => a.id - b.id));
  return ordered.filter((row) => filters.every((f) => f(row)));
}

function intParam(params: URLSearchParams, key: string): number | undefined {
  const raw = params.get(key);
  if (raw === null || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export interface Page {
  count: number | null;
  next: string | null;
  previous: string | null;
  rows: Row[];
}

export function paginate(rows: Row[], params: URLSearchParams, url: URL, cursorAllowed: boolean): Page {
  let limit = intParam(params, "limit") ?? PAGINATE_COUNT;
  if (limit === 0 || limit > MAX_PAGE_SIZE) limit = MAX_PAGE_SIZE;
  const withParams = (changes: Record<string, string | null>): string => {
    const u = new URL(url.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) u.searchParams.delete(k);
      else u.searchParams.set(k, v);
    }
    return u.toString();
  };
  if (cursorAllowed && params.has("start")) {
    if (params.has("offset")) throw badRequest({ detail: ["Cannot specify both start and offset parameters."] });
    const start = intParam(params, "start");
    if (start === undefined) throw new HttpError(400, { start: ["Enter a whole number."] });
    const sorted = rows.filter((r) => r.id >= start).sort((a, b) => a.id - b.id);
    const page = sorted.slice(0, limit);
    const last = page[page.length - 1];
    const next = sorted.length > limit && last ? withParams({ start: String(last.id + 1), limit: String(limit) }) : null;
    return { count: null, next, previous: null, rows: page };
  }
  const offset = intParam(params, "offset") ?? 0;
  const page = rows.slice(offset, offset + limit);
  const next = offset + limit < rows.length ? withParams({ limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) {
    const prev = offset - limit;
    previous = prev <= 0 ? withParams({ limit: String(limit), offset: null }) : withParams({ limit: String(limit), offset: String(prev) });
  }
  return { count: rows.length, next, previous, rows: page };
}
