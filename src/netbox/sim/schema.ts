// The simulator's own OpenAPI document at /api/schema/, in the shape NetBox's drf-spectacular
// schema has: one path per list and per object, each list's GET naming the query parameters it
// takes. Clients read it to learn which filters exist (the netbox.netbox inventory plugin drops
// every `query_filters` entry the schema does not list for devices or VMs), so it lists what the
// simulator really filters on, not NetBox's full set.
import { stringify } from "yaml";
import { CONTROL_PARAMS, LOOKUPS } from "./query.js";
import type { ResourceDef, SimVersion } from "./resource.js";
import { UNMODELLED_COLLECTIONS } from "./unmodelled.js";

const PAGING = ["limit", "offset", "ordering"];

/** The filter names query.ts understands for a resource (its fields, `<fk>_id`, tags, its own filters). */
export function filterNames(def: ResourceDef): string[] {
  const names = new Set<string>(["id", "q"]);
  for (const f of def.fields) {
    if (f.kind === "computed" || f.kind === "customFields" || f.kind === "json") continue;
    if (f.kind === "tags") {
      names.add("tag");
      names.add("tag_id");
      continue;
    }
    names.add(f.name);
    if (f.kind === "fk" || f.kind === "fkList") names.add(`${f.name}_id`);
  }
  for (const name of Object.keys(def.filters ?? {})) names.add(name);
  return [...names].filter((n) => !CONTROL_PARAMS.has(n));
}

function withLookups(names: readonly string[]): string[] {
  return names.flatMap((n) => (n === "q" ? [n] : [n, ...LOOKUPS.map((l) => `${n}__${l}`)]));
}

const queryParam = (name: string) => ({
  in: "query",
  name,
  schema: { type: name === "limit" || name === "offset" ? "integer" : "string" },
});

function pathsFor(path: string, filters: readonly string[], tag: string): Record<string, unknown> {
  const op = path.replace(/[/-]/g, "_");
  return {
    [`/api/${path}/`]: {
      get: {
        operationId: `${op}_list`,
        tags: [tag],
        parameters: [...withLookups(filters), ...PAGING].map(queryParam),
        responses: { "200": { description: "" } },
      },
    },
    [`/api/${path}/{id}/`]: {
      get: {
        operationId: `${op}_retrieve`,
        tags: [tag],
        parameters: [{ in: "path", name: "id", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "" } },
      },
    },
  };
}

export function openapiDocument(resources: readonly ResourceDef[], version: SimVersion): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const def of resources) Object.assign(paths, pathsFor(def.path, filterNames(def), def.path.split("/")[0] ?? ""));
  for (const [path, filters] of UNMODELLED_COLLECTIONS) Object.assign(paths, pathsFor(path, filters, path.split("/")[0] ?? ""));
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const short = version.full.split(".").slice(0, 2).join(".");
  return {
    openapi: "3.0.3",
    info: { title: "NetBox REST API", version: `${version.full} (${short})`, license: { name: "Apache v2 License" } },
    paths: sorted,
  };
}

/** NetBox answers YAML unless JSON is asked for (`?format=json`, as pynetbox and the inventory plugin do). */
export function schemaReply(
  resources: readonly ResourceDef[],
  version: SimVersion,
  params: URLSearchParams,
): { body: string; contentType: string } {
  const doc = openapiDocument(resources, version);
  if (params.get("format") === "json") return { body: JSON.stringify(doc), contentType: "application/vnd.oai.openapi+json" };
  return { body: stringify(doc), contentType: "application/vnd.oai.openapi" };
}
