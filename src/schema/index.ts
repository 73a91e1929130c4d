// Runtime lookups over the facts generated from PVE's official API schema.
// Everything loads lazily on first call and is cached for the life of the process.

import { loadEndpoints, loadFormats } from "./load.js";
import { PathTrie } from "./path-trie.js";
import type { EndpointSchema, HttpMethod, ParamSchema, SubSchema } from "./types.js";

export type * from "./types.js";
export type { ApiMethod, ApiParams, ApiPath, ApiReturns, PathsWith, PveApi } from "./generated/api-types.js";

/** All methods of one path template. */
export type PathEndpoints = Partial<Record<HttpMethod, EndpointSchema>>;

interface Index {
  all: EndpointSchema[];
  byKey: Map<string, EndpointSchema>;
  trie: PathTrie<PathEndpoints>;
}

let index: Index | undefined;

function buildIndex(): Index {
  const all = loadEndpoints().endpoints;
  const byKey = new Map<string, EndpointSchema>();
  const byPath = new Map<string, PathEndpoints>();
  for (const endpoint of all) {
    byKey.set(`${endpoint.method} ${endpoint.path}`, endpoint);
    let methods = byPath.get(endpoint.path);
    if (!methods) {
      methods = {};
      byPath.set(endpoint.path, methods);
    }
    methods[endpoint.method] = endpoint;
  }
  const trie = new PathTrie<PathEndpoints>();
  for (const [path, methods] of byPath) trie.insert(path, methods);
  return { all, byKey, trie };
}

function getIndex(): Index {
  index ??= buildIndex();
  return index;
}

/** Every endpoint (649 in PVE 9.1), sorted by path then GET, POST, PUT, DELETE. */
export function allEndpoints(): EndpointSchema[] {
  return getIndex().all;
}

/** The endpoint of a path template, e.g. getEndpoint("GET", "/nodes/{node}/qemu/{vmid}/config"). */
export function getEndpoint(method: HttpMethod, template: string): EndpointSchema | undefined {
  return getIndex().byKey.get(`${method} ${template}`);
}

export interface PathMatch {
  /** The path template, e.g. "/nodes/{node}/qemu/{vmid}/config". */
  template: string;
  /** Decoded values of the template's `{params}`. */
  pathParams: Record<string, string>;
  /** The methods this path supports. */
  endpoints: PathEndpoints;
}

/**
 * Resolves a concrete path (without `/api2/json` and without query string) to its template.
 * Literal segments win over `{param}` segments.
 */
export function matchPath(concretePath: string): PathMatch | undefined {
  const found = getIndex().trie.match(concretePath);
  if (!found) return undefined;
  return { template: found.template, pathParams: found.pathParams, endpoints: found.value };
}

/** The endpoint for a concrete path and method, with the path's parameter values. */
export function matchEndpoint(
  method: HttpMethod,
  concretePath: string,
): { endpoint: EndpointSchema; pathParams: Record<string, string> } | undefined {
  const found = matchPath(concretePath);
  const endpoint = found?.endpoints[method];
  if (!found || !endpoint) return undefined;
  return { endpoint, pathParams: found.pathParams };
}

/** True when some method exists at this concrete path (PVE answers 501 for the others). */
export function pathExists(concretePath: string): boolean {
  return matchPath(concretePath) !== undefined;
}

const INDEXED_NAME = /^(.*?)(0|[1-9][0-9]*)$/;

/**
 * The schema of a property by its concrete name: `net3` resolves to `net[n]` when 3 lies
 * within its index range; `net32` (out of range) and `net03` resolve to nothing.
 */
export function propertySchema(properties: Record<string, ParamSchema> | undefined, name: string): ParamSchema | undefined {
  if (!properties) return undefined;
  if (Object.hasOwn(properties, name)) return properties[name];
  const indexed = INDEXED_NAME.exec(name);
  if (!indexed) return undefined;
  const schema = properties[`${indexed[1]}[n]`];
  const position = Number(indexed[2]);
  if (!schema?.index || position < schema.index.min || position > schema.index.max) return undefined;
  return schema;
}

/** The schema of a parameter of an endpoint by its concrete name (see propertySchema). */
export function paramSchema(endpoint: EndpointSchema, name: string): ParamSchema | undefined {
  return propertySchema(endpoint.params, name);
}

/** Every concrete name an indexed key stands for: "net[n]" (0..31) -> net0 ... net31. */
export function expandIndexedName(key: string, schema: ParamSchema): string[] {
  if (!schema.index || !key.endsWith("[n]")) return [key];
  const base = key.slice(0, -3);
  const names: string[] = [];
  for (let i = schema.index.min; i <= schema.index.max; i++) names.push(`${base}${i}`);
  return names;
}

/** The sub-schema of a named property-string format (e.g. "pve-qm-boot"), if it is one. */
export function getFormat(name: string): SubSchema | undefined {
  const formats = loadFormats().propertyStrings;
  return Object.hasOwn(formats, name) ? formats[name] : undefined;
}

let codeFormatSet: Set<string> | undefined;

export interface CodeFormatName {
  /** The registered validator, e.g. "pve-vmid" for "pve-vmid-list". */
  base: string;
  /** `<fmt>-list`: a list of items split on `,`, `;`, whitespace or NUL; empty allowed. */
  list: boolean;
  /** `<fmt>-opt`: the empty string is allowed too. */
  emptyAllowed: boolean;
}

/**
 * Splits a format name into its code validator and PVE's `-list` / `-opt` suffix rules
 * (suffixes only apply to code formats). Undefined when no such validator exists.
 */
export function codeFormat(name: string): CodeFormatName | undefined {
  codeFormatSet ??= new Set(loadFormats().codeFormats);
  if (codeFormatSet.has(name)) return { base: name, list: false, emptyAllowed: false };
  const suffixed = /^(.+)-(list|opt)$/.exec(name);
  if (suffixed && codeFormatSet.has(suffixed[1] as string)) {
    return { base: suffixed[1] as string, list: suffixed[2] === "list", emptyAllowed: suffixed[2] === "opt" };
  }
  return undefined;
}

/** True for formats checked by a PVE validator function (pve-vmid, mac-addr, pve-node-list ...). */
export function isCodeFormat(name: string): boolean {
  return codeFormat(name) !== undefined;
}

/** Names of all named property-string formats. */
export function propertyStringFormatNames(): string[] {
  return Object.keys(loadFormats().propertyStrings);
}
