// Walks PVE's API tree (apidata.json) and produces one facts-only EndpointSchema per
// path + method, and the named-format registry (pve-formats.json) as sub-schemas.

import type { EndpointPermissions, EndpointSchema, HttpMethod, SubSchema } from "../../src/schema/types.js";
import { indexRangeFor } from "./index-ranges.js";
import { isRecord, type NormalizeContext, normalizeSchema, normalizeSubSchema, type Raw } from "./normalize.js";

const METHOD_ORDER: HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

const ENDPOINT_KEYS = new Set([
  "name",
  "description",
  "method",
  "parameters",
  "returns",
  "permissions",
  "protected",
  "proxyto",
  "allowtoken",
  "download_allowed",
  "expose_credentials",
]);

export type DropReporter = (where: string, what: string) => void;

function normalizePermissions(raw: unknown, where: string): EndpointPermissions {
  if (!isRecord(raw)) throw new Error(`${where}: permissions is not an object`);
  const out: EndpointPermissions = {};
  for (const key of Object.keys(raw)) {
    if (key === "description") continue; // prose
    if (key === "check") {
      if (!Array.isArray(raw.check)) throw new Error(`${where}: permissions.check is not a list`);
      out.check = raw.check;
    } else if (key === "user") {
      if (raw.user !== "all" && raw.user !== "world") throw new Error(`${where}: unknown permissions.user`);
      out.user = raw.user;
    } else {
      throw new Error(`${where}: unknown permissions key ${key}`);
    }
  }
  return out;
}

function endpointFrom(path: string, method: HttpMethod, info: Raw, dropped: DropReporter): EndpointSchema {
  const where = `${method} ${path}`;
  for (const key of Object.keys(info)) {
    if (!ENDPOINT_KEYS.has(key)) throw new Error(`${where}: unknown endpoint key ${key}`);
  }
  if (info.method !== method) throw new Error(`${where}: method mismatch ${String(info.method)}`);
  const ctx = (part: string): NormalizeContext => ({
    where: `${where} ${part}`,
    indexRange: (key) => indexRangeFor(path, key),
    dropped,
  });
  const parameters = normalizeSchema(info.parameters ?? { type: "object" }, ctx("params"));
  const endpoint: EndpointSchema = {
    path,
    method,
    params: parameters.properties ?? {},
    returns: normalizeSchema(info.returns ?? {}, ctx("returns")),
    allowtoken: info.allowtoken === 1,
    protected: info.protected === 1,
  };
  if (info.permissions !== undefined) endpoint.permissions = normalizePermissions(info.permissions, where);
  if (typeof info.proxyto === "string") endpoint.proxyto = info.proxyto;
  if (parameters.additionalProperties === true) endpoint.additionalParams = true;
  if (info.download_allowed === 1) endpoint.downloadAllowed = true;
  if (info.expose_credentials === 1) endpoint.exposeCredentials = true;
  return endpoint;
}

/** All endpoints of the tree, sorted by path then GET, POST, PUT, DELETE. */
export function collectEndpoints(tree: unknown, dropped: DropReporter): EndpointSchema[] {
  const out: EndpointSchema[] = [];
  const visit = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) throw new Error("API tree: children is not a list");
    for (const node of nodes) {
      if (!isRecord(node) || typeof node.path !== "string") throw new Error("API tree: node without path");
      const info = node.info;
      if (info !== undefined) {
        if (!isRecord(info)) throw new Error(`${node.path}: info is not an object`);
        for (const method of Object.keys(info)) {
          if (!METHOD_ORDER.includes(method as HttpMethod)) throw new Error(`${node.path}: unknown method ${method}`);
          const raw = info[method];
          if (!isRecord(raw)) throw new Error(`${method} ${node.path}: not an object`);
          out.push(endpointFrom(node.path, method as HttpMethod, raw, dropped));
        }
      }
      if (node.children !== undefined) visit(node.children);
    }
  };
  visit(tree);
  return out.sort((a, b) =>
    a.path === b.path ? METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) : a.path < b.path ? -1 : 1,
  );
}

export interface FormatRegistry {
  /** Named property-string formats: format name -> sub-schema. */
  propertyStrings: Record<string, SubSchema>;
  /** Named formats implemented by a Perl validator function (no sub-schema). */
  codeFormats: string[];
}

/** Splits pve-formats.json into property-string sub-schemas and code-validator names. */
export function collectFormats(raw: unknown, dropped: DropReporter): FormatRegistry {
  if (!isRecord(raw)) throw new Error("pve-formats.json is not an object");
  const propertyStrings: Record<string, SubSchema> = {};
  const codeFormats: string[] = [];
  for (const name of Object.keys(raw).sort()) {
    const value = raw[name];
    if (value === null) {
      // `email-opt` is registered without a body: it is the `-opt` variant of `email`,
      // which isCodeFormat() resolves through the suffix rule.
      dropped(`format ${name}`, "registered as null");
      continue;
    }
    if (isRecord(value) && value["x-perl-code"] === true) {
      codeFormats.push(name);
      continue;
    }
    propertyStrings[name] = normalizeSubSchema(value, { where: `format ${name}`, dropped });
  }
  return { propertyStrings, codeFormats };
}
