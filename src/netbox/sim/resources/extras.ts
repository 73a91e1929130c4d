// Simulated /api/extras/: tags, custom fields (which shape every object's `custom_fields`)
// and journal entries (where pvectl records why a record did not move on).
import { NETBOX_ENUMS } from "../../generated/types.js";
import { addError } from "../errors.js";
import type { ResourceDef } from "../resource.js";
import { str } from "../resource.js";
import { assignedObject, checkAssignedObject, checkUniqueField, TAGS_AND_CUSTOM_FIELDS } from "./common.js";

export const tags: ResourceDef = {
  path: "extras/tags",
  objectType: "extras.tag",
  lookupField: "slug",
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 100 },
    { name: "slug", kind: "string", required: true, maxLength: 100 },
    { name: "color", kind: "string", maxLength: 6, default: "9e9e9e" },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "object_types", kind: "json" },
    {
      name: "tagged_items",
      kind: "computed",
      value: (r, ctx) =>
        ["virtualization/virtual-machines", "virtualization/interfaces", "ipam/ip-addresses"]
          .flatMap((p) => ctx.store.rows(p))
          .filter((o) => Array.isArray(o.tags) && o.tags.includes(r.id)).length,
    },
  ],
  brief: ["name", "slug", "color", "description"],
  display: (r) => str(r, "name"),
  search: ["name", "slug", "description"],
  clean(row, _b, ctx, errors) {
    if (row.object_types === null || row.object_types === undefined) row.object_types = [];
    checkUniqueField(ctx, "extras/tags", row, "name", "tag", errors);
    checkUniqueField(ctx, "extras/tags", row, "slug", "tag", errors);
  },
  beforeDelete(r, ctx) {
    for (const path of ["virtualization/virtual-machines", "virtualization/interfaces", "ipam/ip-addresses", "ipam/prefixes"])
      for (const o of ctx.store.rows(path)) if (Array.isArray(o.tags)) o.tags = o.tags.filter((t) => t !== r.id);
  },
};

const choice = (key: string, fallback: string[]): readonly string[] => (NETBOX_ENUMS[key] ?? fallback).filter((v) => v !== "");

export const customFields: ResourceDef = {
  path: "extras/custom-fields",
  objectType: "extras.customfield",
  lookupField: "name",
  fields: [
    { name: "object_types", kind: "json", required: true },
    { name: "type", kind: "choice", values: choice("WritableCustomFieldRequest.type", ["text", "integer"]), default: "text" },
    { name: "related_object_type", kind: "string", nullable: true },
    { name: "data_type", kind: "computed", value: (r) => (r.type === "integer" ? "integer" : r.type === "boolean" ? "boolean" : "string") },
    { name: "name", kind: "string", required: true, maxLength: 50 },
    { name: "label", kind: "string", maxLength: 50 },
    { name: "group_name", kind: "string", maxLength: 50 },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "required", kind: "bool", default: false },
    { name: "unique", kind: "bool", default: false },
    { name: "search_weight", kind: "int", default: 1000 },
    { name: "filter_logic", kind: "choice", values: choice("WritableCustomFieldRequest.filter_logic", ["loose"]), default: "loose" },
    { name: "ui_visible", kind: "choice", values: choice("WritableCustomFieldRequest.ui_visible", ["always"]), default: "always" },
    { name: "ui_editable", kind: "choice", values: choice("WritableCustomFieldRequest.ui_editable", ["yes"]), default: "yes" },
    { name: "is_cloneable", kind: "bool", default: false },
    { name: "default", kind: "json", nullable: true },
    { name: "weight", kind: "int", default: 100 },
    { name: "validation_minimum", kind: "int", nullable: true },
    { name: "validation_maximum", kind: "int", nullable: true },
    { name: "validation_regex", kind: "string", maxLength: 500 },
    { name: "comments", kind: "string" },
  ],
  brief: ["name", "description"],
  display: (r) => str(r, "label") || str(r, "name"),
  search: ["name", "label", "description"],
  filters: {
    object_type: (r, v) => Array.isArray(r.object_types) && v.some((t) => (r.object_types as unknown[]).includes(t)),
  },
  clean(row, _b, ctx, errors) {
    if (!/^[a-z0-9_]+$/.test(str(row, "name"))) addError(errors, "name", "Only alphanumeric characters and underscores are allowed.");
    if (!Array.isArray(row.object_types) || row.object_types.some((t) => typeof t !== "string"))
      addError(errors, "object_types", 'Expected a list of items but got type "' + typeof row.object_types + '".');
    checkUniqueField(ctx, "extras/custom-fields", row, "name", "custom field", errors);
  },
};

export const journalEntries: ResourceDef = {
  path: "extras/journal-entries",
  objectType: "extras.journalentry",
  fields: [
    { name: "assigned_object_type", kind: "string", required: true },
    { name: "assigned_object_id", kind: "int", required: true, min: 0 },
    { name: "assigned_object", kind: "computed", value: (r, ctx) => assignedObject(ctx, r) },
    { name: "created_by", kind: "computed", value: () => 1 },
    { name: "kind", kind: "choice", values: choice("WritableJournalEntryRequest.kind", ["info"]), default: "info" },
    { name: "comments", kind: "string", required: true },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["created", "kind"],
  display: (r) => `${r.created.slice(0, 16).replace("T", " ")} (${String(r.kind)})`,
  search: ["comments"],
  // JournalEntryFilterSet: DateTimeFilters on `created` (gte / lte).
  filters: {
    created_after: (r, v) => v.every((t) => Date.parse(r.created) >= Date.parse(t)),
    created_before: (r, v) => v.every((t) => Date.parse(r.created) <= Date.parse(t)),
  },
  clean(row, _b, ctx, errors) {
    checkAssignedObject(
      ctx,
      row,
      ["virtualization.virtualmachine", "virtualization.vminterface", "ipam.ipaddress", "virtualization.cluster"],
      errors,
      true,
    );
  },
};
