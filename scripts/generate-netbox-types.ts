// Generates the TypeScript types pvectl's NetBox client and simulator use, from NetBox's own
// OpenAPI schema (drf-spectacular output; see ../shared/netbox-api/SOURCE.md).
// Only facts are carried over: schema and property names, types, enums, nullability,
// read-only markers and required lists. No description text is copied.
// Rerun only when the schema changes:
//   npx tsx scripts/generate-netbox-types.ts [path/to/openapi.json]
// Output: src/netbox/generated/types.ts (committed; the build never needs ../shared).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

interface SchemaNode {
  type?: string;
  format?: string;
  enum?: (string | null)[];
  nullable?: boolean;
  readOnly?: boolean;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  $ref?: string;
  required?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface OpenApi {
  info: { version: string };
  components: { schemas: Record<string, SchemaNode> };
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

// The response and request schemas of the endpoints pvectl uses; everything they
// reference is pulled in transitively.
const ROOT_SCHEMAS = [
  "VirtualMachineWithConfigContext",
  "WritableVirtualMachineWithConfigContextRequest",
  "VMInterface",
  "WritableVMInterfaceRequest",
  "VirtualDisk",
  "VirtualDiskRequest",
  "MACAddress",
  "MACAddressRequest",
  "IPAddress",
  "WritableIPAddressRequest",
  "Prefix",
  "WritablePrefixRequest",
  "AvailableIP",
  "Cluster",
  "WritableClusterRequest",
  "ClusterType",
  "ClusterTypeRequest",
  "Site",
  "Platform",
  "PlatformRequest",
  "Tag",
  "TagRequest",
  "CustomField",
  "WritableCustomFieldRequest",
  "VLAN",
  "WritableVLANRequest",
  "JournalEntry",
  "WritableJournalEntryRequest",
];

// List endpoints whose filter parameter names are recorded (lookups like `__n` are left out).
const FILTERED_PATHS = [
  "/api/virtualization/virtual-machines/",
  "/api/virtualization/interfaces/",
  "/api/virtualization/virtual-disks/",
  "/api/virtualization/clusters/",
  "/api/virtualization/cluster-types/",
  "/api/dcim/sites/",
  "/api/dcim/platforms/",
  "/api/dcim/mac-addresses/",
  "/api/ipam/ip-addresses/",
  "/api/ipam/prefixes/",
  "/api/ipam/vlans/",
  "/api/extras/tags/",
  "/api/extras/custom-fields/",
  "/api/extras/journal-entries/",
];

const refName = (ref: string): string => ref.split("/").pop() ?? ref;

function isRequestSchema(name: string): boolean {
  return name.endsWith("Request");
}

class Emitter {
  readonly pending: string[] = [...ROOT_SCHEMAS];
  readonly done = new Set<string>();
  readonly out: string[] = [];
  readonly enums: [string, string[]][] = [];

  constructor(private readonly schemas: Record<string, SchemaNode>) {}

  run(): void {
    while (this.pending.length > 0) {
      const name = this.pending.shift() as string;
      if (this.done.has(name)) continue;
      this.done.add(name);
      const node = this.schemas[name];
      if (!node) throw new Error(`schema ${name} not found`);
      this.emitInterface(name, node);
    }
  }

  private use(name: string): string {
    if (!this.done.has(name)) this.pending.push(name);
    return name;
  }

  private emitInterface(name: string, node: SchemaNode): void {
    const required = new Set(node.required ?? []);
    const lines = [`export interface ${name} {`];
    for (const [prop, schema] of Object.entries(node.properties ?? {})) {
      const optional = required.has(prop) ? "" : "?";
      const ro = schema.readOnly ? "readonly " : "";
      const key = /^[A-Za-z_$][\w$]*$/.test(prop) ? prop : JSON.stringify(prop);
      lines.push(`  ${ro}${key}${optional}: ${this.typeOf(schema, name)};`);
      const values = this.enumOf(schema);
      if (values) this.enums.push([`${name}.${prop}`, values]);
    }
    if (node.additionalProperties && !node.properties) lines.push("  [key: string]: unknown;");
    lines.push("}");
    this.out.push(lines.join("\n"));
  }

  private enumOf(schema: SchemaNode): string[] | undefined {
    const direct = schema.enum ?? schema.properties?.value?.enum;
    return direct?.filter((v): v is string => typeof v === "string");
  }

  private typeOf(schema: SchemaNode, owner: string): string {
    const base = this.baseType(schema, owner);
    return schema.nullable ? `${base} | null` : base;
  }

  private baseType(schema: SchemaNode, owner: string): string {
    const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
    if (ref) {
      const target = this.use(refName(ref));
      // NetBox accepts a related object as its numeric id or as attributes matching one object.
      return isRequestSchema(owner) && isRequestSchema(target) ? `number | ${target}` : target;
    }
    if (schema.oneOf) return schema.oneOf.map((s) => this.typeOf(s, owner)).join(" | ");
    if (schema.enum) {
      const values = schema.enum.filter((v): v is string => typeof v === "string");
      return values.map((v) => JSON.stringify(v)).join(" | ") || "string";
    }
    switch (schema.type) {
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "string":
        return "string";
      case "array":
        return `(${schema.items ? this.typeOf(schema.items, owner) : "unknown"})[]`;
      case "object": {
        if (schema.properties) {
          const inner = Object.entries(schema.properties).map(
            ([k, v]) => `${k}${schema.required?.includes(k) ? "" : "?"}: ${this.typeOf(v, owner)}`,
          );
          return `{ ${inner.join("; ")} }`;
        }
        return "Record<string, unknown>";
      }
      default:
        return "unknown";
    }
  }
}

function filterNames(api: OpenApi, path: string): string[] {
  const params = api.paths[path]?.get?.parameters ?? [];
  return params
    .filter((p) => p.in === "query" && !p.name.includes("__"))
    .map((p) => p.name)
    .sort();
}

function main(): void {
  const root = new URL("..", import.meta.url).pathname;
  const input = process.argv[2] ?? join(root, "../shared/netbox-api/openapi.json");
  const api = JSON.parse(readFileSync(input, "utf8")) as OpenApi;
  const emitter = new Emitter(api.components.schemas);
  emitter.run();

  const header = [
    "// GENERATED by scripts/generate-netbox-types.ts from NetBox's OpenAPI schema",
    `// (info.version ${JSON.stringify(api.info.version)}). Facts only: names, types, enums, required, nullable.`,
    "// Do not edit by hand; rerun the generator when the schema changes.",
    "",
    `export const NETBOX_SCHEMA_VERSION = ${JSON.stringify(api.info.version)};`,
    "",
  ];
  const enumLines = [
    "/** Allowed values of every enum property, keyed by `Schema.property`. */",
    "export const NETBOX_ENUMS: Readonly<Record<string, readonly string[]>> = {",
    ...emitter.enums.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
    "};",
    "",
  ];
  const filterLines = [
    "/** Filter parameter names (without lookup suffixes) each list endpoint accepts. */",
    "export const NETBOX_LIST_FILTERS: Readonly<Record<string, readonly string[]>> = {",
    ...FILTERED_PATHS.map((p) => `  ${JSON.stringify(p)}: ${JSON.stringify(filterNames(api, p))},`),
    "};",
    "",
  ];
  const text = [...header, ...emitter.out.map((s) => `${s}\n`), ...enumLines, ...filterLines].join("\n");
  const target = join(root, "src/netbox/generated/types.ts");
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  process.stdout.write(`wrote ${target}: ${emitter.done.size} schemas, ${emitter.enums.length} enums\n`);
}

main();
