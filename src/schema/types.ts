// Shapes of the facts generated from PVE's official API schema (src/schema/generated/).
// Only structural facts are kept: names, types, formats, enums, ranges, patterns, defaults,
// permissions. Description prose from the source schema (AGPL) is never copied.

export type ParamType = "string" | "integer" | "number" | "boolean" | "array" | "object" | "null" | "any";

/** A parameter, a returned field, or one key of a property-string sub-schema. */
export interface ParamSchema {
  type?: ParamType;
  optional?: boolean;
  default?: string | number | boolean;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  /** A JavaScript-compatible regular expression source (anchored by the validator). */
  pattern?: string;
  /** A named format (see `formats`) or an inline property-string sub-schema. */
  format?: string | SubSchema;
  items?: ParamSchema;
  properties?: Record<string, ParamSchema>;
  additionalProperties?: boolean | ParamSchema;
  /** Property-string keys only: this key may be written without `key=` (first position). */
  default_key?: boolean;
  /** This key is another name for the key named here. */
  alias?: string;
  /** Property-string keys only: `virtio=MAC` means `model=virtio,macaddr=MAC` (keyAlias "model", alias "macaddr"). */
  keyAlias?: string;
  /** Indexed parameters (`net[n]`, `scsi[n]` ...): the valid index range, inclusive. */
  index?: { min: number; max: number };
  /** Name of another parameter this one requires. */
  requires?: string;
  /** Alternatives chosen by the value of the sibling key named by `typeProperty` (SDN fabrics). */
  oneOf?: ParamSchema[];
  /** In a `oneOf` alternative: the values of the type property this alternative applies to. */
  instanceTypes?: string[];
  /** With `oneOf`: the sibling parameter whose value selects the alternative (e.g. "protocol"). */
  typeProperty?: string;
}

/** A property-string sub-schema: key name -> its schema. */
export type SubSchema = Record<string, ParamSchema>;

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** The permission facts of an endpoint, as in the schema (`check` expressions kept verbatim). */
export interface EndpointPermissions {
  /** e.g. ["perm", "/vms/{vmid}", ["VM.Audit"]] or ["perm", "/vms/{vmid}", ["VM.Config.Disk", ...], "any", 1] or ["and"|"or", ...]. */
  check?: unknown[];
  /** "all": any authenticated user; "world": anyone. */
  user?: "all" | "world";
}

export interface EndpointSchema {
  path: string;
  method: HttpMethod;
  /** Path, query and body parameters (PVE merges them). Indexed keys appear once, as `net[n]`, with `index`. */
  params: Record<string, ParamSchema>;
  returns: ParamSchema;
  /** Absent: only root@pam may call it. */
  permissions?: EndpointPermissions;
  allowtoken: boolean;
  protected: boolean;
  proxyto?: string;
  /** Parameters not listed in `params` are accepted too (only GET /nodes/{node}/qemu/{vmid}/agent). */
  additionalParams?: boolean;
  /** The endpoint may stream a file download instead of the JSON envelope. */
  downloadAllowed?: boolean;
  /** The endpoint returns credentials (tickets, token secrets). */
  exposeCredentials?: boolean;
}
