// Rows to NetBox's JSON: choices as {value, label}, related objects in their brief form,
// tags as nested tags, and every custom field defined for the object type (null when unset).
import type { FieldSpec, ResourceDef, SimContext } from "./resource.js";
import type { Row } from "./store.js";

const SPECIAL_LABELS: Record<string, string> = {
  dhcp: "DHCP",
  slaac: "SLAAC",
  "tagged-all": "Tagged (All)",
  "q-in-q": "Q-in-Q",
};

export function choiceLabel(spec: FieldSpec & { kind: "choice" }, value: string): string {
  return spec.labels?.[value] ?? SPECIAL_LABELS[value] ?? value.charAt(0).toUpperCase() + value.slice(1);
}

export function objectUrl(ctx: SimContext, def: ResourceDef, id: number): string {
  return `${ctx.baseUrl}/api/${def.path}/${id}/`;
}

function customFieldsOf(ctx: SimContext, def: ResourceDef, stored: unknown): Record<string, unknown> {
  const values = typeof stored === "object" && stored !== null ? (stored as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const cf of ctx.store.rows("extras/custom-fields")) {
    if (!Array.isArray(cf.object_types) || !cf.object_types.includes(def.objectType)) continue;
    const name = String(cf.name);
    out[name] = values[name] ?? null;
  }
  return out;
}

function fieldValue(ctx: SimContext, def: ResourceDef, spec: FieldSpec, row: Row): unknown {
  const raw = row[spec.name];
  switch (spec.kind) {
    case "choice":
      if (spec.plain) return typeof raw === "string" ? raw : null;
      return typeof raw === "string" ? { value: raw, label: choiceLabel(spec, raw) } : null;
    case "fk":
      return ctx.brief(spec.target, typeof raw === "number" ? raw : null);
    case "fkList":
      return (Array.isArray(raw) ? raw : []).map((id) => ctx.brief(spec.target, Number(id)));
    case "tags":
      return (Array.isArray(raw) ? raw : []).map((id) => nestedTag(ctx, Number(id)));
    case "customFields":
      return customFieldsOf(ctx, def, raw);
    case "computed":
      return spec.value(row, ctx);
    default:
      return raw ?? null;
  }
}

function nestedTag(ctx: SimContext, id: number): Record<string, unknown> | null {
  const tag = ctx.store.get("extras/tags", id);
  if (!tag) return null;
  const def = ctx.def("extras/tags");
  return {
    id,
    url: objectUrl(ctx, def, id),
    display_url: `${ctx.baseUrl}/extras/tags/${id}/`,
    display: tag.name,
    name: tag.name,
    slug: tag.slug,
    color: tag.color,
  };
}

export function serializeFull(ctx: SimContext, def: ResourceDef, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: row.id,
    url: objectUrl(ctx, def, row.id),
    display_url: `${ctx.baseUrl}/${def.path}/${row.id}/`,
    display: def.display(row, ctx),
  };
  for (const spec of def.fields) out[spec.name] = fieldValue(ctx, def, spec, row);
  out.created = row.created;
  out.last_updated = row.last_updated;
  return out;
}

export function serializeBrief(ctx: SimContext, def: ResourceDef, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: row.id,
    url: objectUrl(ctx, def, row.id),
    display: def.display(row, ctx),
  };
  for (const name of def.brief) {
    const spec = def.fields.find((f) => f.name === name);
    out[name] = spec ? fieldValue(ctx, def, spec, row) : (row[name] ?? null);
  }
  return out;
}
