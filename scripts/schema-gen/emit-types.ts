// Emits src/schema/generated/api-types.ts: one TypeScript shape per path and method, so a
// typed client can check both the parameters and the returned `data` of every call.
//
// Mapping (schema -> TypeScript):
//   integer                  -> number
//   number                   -> number in params; number | string in returns (PVE hands
//                               `number` config values back as strings, e.g. cpulimit "0.5")
//   boolean                  -> boolean | 0 | 1   (PVE speaks 0/1 on the wire)
//   string with enum         -> union of the literals
//   string (incl. property strings and named formats) -> string
//   array                    -> T[] (items), unknown[] without items
//   object with properties   -> { key?: T } (+ `[k: string]: unknown` when open)
//   object without           -> Record<string, unknown>
//   null                     -> null;  any / untyped -> unknown
//   indexed key `net[n]`     -> template-literal index signature [k: `net${number}`]
//   oneOf                    -> union of the alternatives
// Known wire quirks that contradict the schema are listed in RETURN_OVERRIDES.
// Object shapes that occur more than once (the qemu config keys appear in several
// endpoints) are hoisted into shared aliases to keep the file, and `tsc`, small.

import type { EndpointSchema, HttpMethod, ParamSchema } from "../../src/schema/types.js";

const METHODS: HttpMethod[] = ["GET", "POST", "PUT", "DELETE"];

/**
 * Returned types where real PVE differs from its schema (shared/notes/pve-api-behaviour.md 2.2):
 * nextid is declared an integer but sent as a string (`{"data":"100"}`).
 */
const RETURN_OVERRIDES: Record<string, string> = {
  "GET /cluster/nextid": "number | string",
};
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Shapes at least this long are worth a shared alias when repeated. */
const HOIST_MIN_LENGTH = 80;

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

class TypeWriter {
  private readonly counts = new Map<string, number>();
  private readonly aliases = new Map<string, string>();
  private readonly aliasOrder: string[] = [];
  private counting = true;
  /** Which side of the call is being written: returned data has wire quirks params lack. */
  side: "params" | "returns" = "params";

  /** First pass counts object shapes; second pass replaces repeated ones with aliases. */
  finishCounting(): void {
    this.counting = false;
  }

  private share(shape: string): string {
    if (shape.length < HOIST_MIN_LENGTH) return shape;
    if (this.counting) {
      this.counts.set(shape, (this.counts.get(shape) ?? 0) + 1);
      return shape;
    }
    if ((this.counts.get(shape) ?? 0) < 2) return shape;
    let alias = this.aliases.get(shape);
    if (!alias) {
      alias = `Shape${this.aliasOrder.length + 1}`;
      this.aliases.set(shape, alias);
      this.aliasOrder.push(shape);
    }
    return alias;
  }

  aliasDeclarations(): string {
    return this.aliasOrder.map((shape) => `type ${this.aliases.get(shape)} = ${shape};`).join("\n");
  }

  type(schema: ParamSchema): string {
    if (schema.oneOf && schema.oneOf.length > 0) {
      return unique(schema.oneOf.map((alt) => this.type({ ...alt, optional: undefined }))).join(" | ");
    }
    switch (schema.type) {
      case "integer":
        return "number";
      case "number":
        return this.side === "returns" ? "number | string" : "number";
      case "boolean":
        return "boolean | 0 | 1";
      case "string":
        return schema.enum && schema.enum.length > 0 ? unique(schema.enum.map((v) => JSON.stringify(v))).join(" | ") : "string";
      case "null":
        return "null";
      case "array":
        return schema.items ? `${wrapForArray(this.type(schema.items))}[]` : "unknown[]";
      case "object":
        return this.object(schema.properties, schema.additionalProperties);
      default:
        // "any", or no type at all: a shape the schema does not pin down.
        if (schema.properties) return this.object(schema.properties, schema.additionalProperties);
        return "unknown";
    }
  }

  object(properties: Record<string, ParamSchema> | undefined, additional: ParamSchema["additionalProperties"]): string {
    const names = Object.keys(properties ?? {});
    if (names.length === 0) return "Record<string, unknown>";
    const members: string[] = [];
    for (const name of names) {
      const schema = (properties as Record<string, ParamSchema>)[name] as ParamSchema;
      const valueType = this.type(schema);
      if (name.endsWith("[n]") && schema.index) {
        members.push(`[k: \`${name.slice(0, -3)}\${number}\`]: ${valueType};`);
      } else {
        members.push(`${propertyKey(name)}${schema.optional ? "?" : ""}: ${valueType};`);
      }
    }
    if (additional === true || typeof additional === "object") members.push("[k: string]: unknown;");
    return this.share(`{ ${members.join(" ")} }`);
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function wrapForArray(type: string): string {
  return /^[A-Za-z0-9_$]+(<.*>)?$|^\{.*\}$/.test(type) && !type.includes(" | ") ? type : `(${type})`;
}

function endpointTypes(writer: TypeWriter, endpoint: EndpointSchema): string {
  const open = endpoint.additionalParams === true;
  writer.side = "params";
  // No parameters at all: Record<string, never> still accepts `{}` but rejects stray keys.
  const params = Object.keys(endpoint.params).length === 0 && !open ? "Record<string, never>" : writer.object(endpoint.params, open);
  writer.side = "returns";
  const returns = RETURN_OVERRIDES[`${endpoint.method} ${endpoint.path}`] ?? writer.type(endpoint.returns);
  return `{ params: ${params}; returns: ${returns} }`;
}

function body(writer: TypeWriter, endpoints: EndpointSchema[]): string {
  const byPath = new Map<string, EndpointSchema[]>();
  for (const endpoint of endpoints) {
    const list = byPath.get(endpoint.path) ?? [];
    list.push(endpoint);
    byPath.set(endpoint.path, list);
  }
  const lines: string[] = [];
  for (const path of [...byPath.keys()].sort()) {
    const methods = (byPath.get(path) as EndpointSchema[])
      .slice()
      .sort((a, b) => METHODS.indexOf(a.method) - METHODS.indexOf(b.method))
      .map((e) => `    ${e.method}: ${endpointTypes(writer, e)};`);
    lines.push(`  ${JSON.stringify(path)}: {\n${methods.join("\n")}\n  };`);
  }
  return lines.join("\n");
}

export function emitApiTypes(endpoints: EndpointSchema[]): string {
  const writer = new TypeWriter();
  body(writer, endpoints);
  writer.finishCounting();
  const api = body(writer, endpoints);
  return `// Generated by scripts/generate-schema.ts from PVE's API schema (facts only). Do not edit.
// Regenerate with: npx tsx scripts/generate-schema.ts
/* eslint-disable */

${writer.aliasDeclarations()}

/** Every PVE API path template -> method -> { params, returns } (returns = the \`data\` of the reply). */
export interface PveApi {
${api}
}

export type ApiMethod = "GET" | "POST" | "PUT" | "DELETE";

/** Every path template of the API, e.g. "/nodes/{node}/qemu/{vmid}/config". */
export type ApiPath = keyof PveApi;

/** The path templates that support method M. */
export type PathsWith<M extends ApiMethod> = {
  [P in ApiPath]: M extends keyof PveApi[P] ? P : never;
}[ApiPath];

/** Parameters (path, query and body merged, as PVE does) of path P with method M. */
export type ApiParams<P extends ApiPath, M extends ApiMethod> = PveApi[P] extends Record<M, { params: infer T }>
  ? T
  : never;

/** The \`data\` PVE returns for path P with method M. */
export type ApiReturns<P extends ApiPath, M extends ApiMethod> = PveApi[P] extends Record<M, { returns: infer T }>
  ? T
  : never;
`;
}
