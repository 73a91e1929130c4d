// The declarative description of one NetBox REST resource in the simulator: its fields
// (which drive parsing a request body, serializing a row and the generic filters), its
// brief form, and the model rules NetBox enforces on it (hooks).
import type { FieldErrors } from "./errors.js";
import type { Row, Store } from "./store.js";

export interface FieldBase {
  name: string;
  required?: boolean;
  nullable?: boolean;
  /** Read-only in the API: ignored on input, like DRF does. */
  readOnly?: boolean;
}

export type FieldSpec = FieldBase &
  (
    | { kind: "string"; maxLength?: number; default?: string }
    | { kind: "int"; min?: number; max?: number; default?: number | null }
    | { kind: "number"; min?: number; max?: number; default?: number | null }
    | { kind: "bool"; default: boolean }
    | {
        kind: "choice";
        values: readonly string[];
        labels?: Record<string, string>;
        default: string | null;
        /** Serialised as the bare value, not {value, label}: NetBox's content-type fields (`assigned_object_type`). */
        plain?: true;
      }
    | { kind: "fk"; target: string }
    | { kind: "fkList"; target: string }
    | { kind: "tags" }
    | { kind: "customFields" }
    | { kind: "json" }
    | { kind: "computed"; value: (row: Row, ctx: SimContext) => unknown }
  );

export interface SimVersion {
  /** e.g. "4.6.8" */
  full: string;
  /** numeric major*100+minor, e.g. 406, for feature gates */
  n: number;
}

export interface SimContext {
  store: Store;
  baseUrl: string;
  version: SimVersion;
  def(path: string): ResourceDef;
  brief(path: string, id: number | null | undefined): Record<string, unknown> | null;
  full(def: ResourceDef, row: Row): Record<string, unknown>;
  /** Deletes a row with its model's cascade rules (used by cascades themselves). */
  remove(path: string, id: number): void;
}

export type RowFilter = (row: Row, values: string[], ctx: SimContext) => boolean;

export interface ResourceDef {
  /** URL path under /api/, e.g. "virtualization/virtual-machines" */
  path: string;
  /** NetBox content type, e.g. "virtualization.virtualmachine" */
  objectType: string;
  /** Field used by `?<fk>=` filters and nested-attribute lookups on this resource ("slug" or "name"). */
  lookupField?: string;
  fields: FieldSpec[];
  /** Fields in the brief form besides id, url, display. */
  brief: string[];
  display(row: Row, ctx: SimContext): string;
  /** Fields `?q=` searches (case-insensitive contains). */
  search: string[];
  /** Extra filters beyond the ones derived from fields. */
  filters?: Record<string, RowFilter>;
  /** Oldest NetBox version (major*100+minor) with this endpoint. */
  since?: number;
  /** Model validation after field parsing (NetBox's clean()); adds to `errors`. */
  clean?(row: Row, before: Row | undefined, ctx: SimContext, errors: FieldErrors): void;
  /** Side effects of a successful write. */
  afterWrite?(row: Row, before: Row | undefined, ctx: SimContext): void;
  /** Protect (throw 409) or cascade before a delete. */
  beforeDelete?(row: Row, ctx: SimContext): void;
  order?(a: Row, b: Row): number;
}

export function str(row: Row, key: string): string {
  const v = row[key];
  return typeof v === "string" ? v : "";
}

export function num(row: Row, key: string): number | null {
  const v = row[key];
  return typeof v === "number" ? v : null;
}

export function ids(row: Row, key: string): number[] {
  const v = row[key];
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : [];
}
