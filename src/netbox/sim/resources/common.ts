// Pieces several simulated resources share: the trailing tags/custom-fields/comments fields,
// generic "assigned object" references (content type + id), uniqueness and protection checks.
import { addError, type FieldErrors, HttpError } from "../errors.js";
import type { FieldSpec, SimContext } from "../resource.js";
import { num, str } from "../resource.js";
import type { Row } from "../store.js";

export const TAGS_AND_CUSTOM_FIELDS: FieldSpec[] = [
  { name: "tags", kind: "tags" },
  { name: "custom_fields", kind: "customFields" },
];

export const nullComputed = (name: string): FieldSpec => ({ name, kind: "computed", value: () => null });

/** NetBox content types pvectl's resources are referenced by, and where they live. */
export const CONTENT_TYPE_PATHS: Record<string, string> = {
  "virtualization.vminterface": "virtualization/interfaces",
  "virtualization.virtualmachine": "virtualization/virtual-machines",
  "virtualization.cluster": "virtualization/clusters",
  "ipam.ipaddress": "ipam/ip-addresses",
  "ipam.prefix": "ipam/prefixes",
  "dcim.site": "dcim/sites",
};

/** Validates an (assigned_object_type, assigned_object_id) pair against the store. */
export function checkAssignedObject(
  ctx: SimContext,
  row: Row,
  allowedTypes: readonly string[],
  errors: FieldErrors,
  required = false,
): void {
  const type = row.assigned_object_type;
  const id = row.assigned_object_id;
  if ((type === null || type === undefined) && (id === null || id === undefined)) {
    if (required) addError(errors, "assigned_object_type", "This field is required.");
    return;
  }
  if (typeof type !== "string" || !allowedTypes.includes(type)) {
    addError(errors, "assigned_object_type", `"${String(type)}" is not a valid choice.`);
    return;
  }
  const path = CONTENT_TYPE_PATHS[type];
  if (typeof id !== "number" || !path || !ctx.store.get(path, id)) {
    addError(errors, "assigned_object_id", `Related object not found using the provided numeric ID: ${String(id)}`);
  }
}

/** The brief form of an assigned object, as NetBox nests it (interfaces carry their VM). */
export function assignedObject(ctx: SimContext, row: Row): Record<string, unknown> | null {
  const path = CONTENT_TYPE_PATHS[str(row, "assigned_object_type")];
  const id = num(row, "assigned_object_id");
  if (!path || id === null) return null;
  return ctx.brief(path, id);
}

/** A model-level uniqueness rule; NetBox reports these under `__all__`. */
export function checkUnique(ctx: SimContext, path: string, row: Row, keys: string[], message: string, errors: FieldErrors): void {
  const clash = ctx.store.rows(path).some((other) => other.id !== row.id && keys.every((k) => (other[k] ?? null) === (row[k] ?? null)));
  if (clash) addError(errors, "__all__", message);
}

/** A field that must be unique on its own (DRF's UniqueValidator message). */
export function checkUniqueField(ctx: SimContext, path: string, row: Row, field: string, model: string, errors: FieldErrors): void {
  const clash = ctx.store.rows(path).some((o) => o.id !== row.id && o[field] === row[field]);
  if (clash) addError(errors, field, `${model} with this ${field} already exists.`);
}

/** on_delete=PROTECT: refuse with 409 and name the dependents, as NetBox does. */
export function protect(ctx: SimContext, row: Row, dependents: { path: string; field: string }[]): void {
  const found: Row[] = [];
  for (const d of dependents) {
    for (const other of ctx.store.rows(d.path)) if (other[d.field] === row.id) found.push(other);
  }
  if (found.length === 0) return;
  const names = found.map((r) => ctx.def(dependents.find((d) => r[d.field] === row.id)?.path ?? "").display(r, ctx));
  throw new HttpError(409, {
    detail: `Unable to delete object. ${found.length} dependent objects were found: ${names.join(", ")}`,
  });
}

/** on_delete=SET_NULL for a foreign key pointing at `id`. */
export function setNull(ctx: SimContext, path: string, field: string, id: number): void {
  for (const other of ctx.store.rows(path)) if (other[field] === id) other[field] = null;
}

export function countWhere(ctx: SimContext, path: string, field: string, id: number): number {
  return ctx.store.rows(path).filter((r) => r[field] === id).length;
}
