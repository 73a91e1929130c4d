// Simulated /api/extras/webhooks/ and /api/extras/event-rules/ (NetBox >= 4.0): what sends a
// change to an outside receiver. The delivery itself is in ../events.ts.
import { compileConditions } from "../conditions.js";
import { addError } from "../errors.js";
import type { ResourceDef } from "../resource.js";
import { str } from "../resource.js";
import { checkUniqueField, TAGS_AND_CUSTOM_FIELDS } from "./common.js";

export const EVENT_TYPES = [
  "object_created",
  "object_updated",
  "object_deleted",
  "job_started",
  "job_completed",
  "job_failed",
  "job_errored",
] as const;

export const webhooks: ResourceDef = {
  path: "extras/webhooks",
  objectType: "extras.webhook",
  since: 400,
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 150 },
    { name: "description", kind: "string", maxLength: 200 },
    { name: "payload_url", kind: "string", required: true },
    { name: "http_method", kind: "choice", values: ["GET", "POST", "PUT", "PATCH", "DELETE"], default: "POST" },
    { name: "http_content_type", kind: "string", default: "application/json" },
    { name: "additional_headers", kind: "string" },
    { name: "body_template", kind: "string" },
    { name: "secret", kind: "string", maxLength: 255 },
    { name: "ssl_verification", kind: "bool", default: true },
    { name: "ca_file_path", kind: "string", nullable: true },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["name", "description"],
  display: (r) => str(r, "name"),
  search: ["name", "payload_url"],
  clean(row, _b, ctx, errors) {
    checkUniqueField(ctx, "extras/webhooks", row, "name", "webhook", errors);
    if (str(row, "body_template") !== "")
      addError(errors, "body_template", "The NetBox simulator sends the default JSON body only; leave body_template blank.");
  },
};

export const eventRules: ResourceDef = {
  path: "extras/event-rules",
  objectType: "extras.eventrule",
  since: 400,
  fields: [
    { name: "name", kind: "string", required: true, maxLength: 150 },
    { name: "object_types", kind: "json" },
    { name: "event_types", kind: "json" },
    { name: "enabled", kind: "bool", default: true },
    { name: "conditions", kind: "json" },
    { name: "action_type", kind: "choice", values: ["webhook", "script", "notification"], default: "webhook" },
    { name: "action_object_type", kind: "string", required: true },
    { name: "action_object_id", kind: "int", nullable: true, min: 0 },
    { name: "description", kind: "string", maxLength: 200 },
    ...TAGS_AND_CUSTOM_FIELDS,
  ],
  brief: ["name", "description"],
  display: (r) => str(r, "name"),
  search: ["name", "description"],
  clean(row, _b, ctx, errors) {
    checkUniqueField(ctx, "extras/event-rules", row, "name", "event rule", errors);
    const list = (field: string) => (Array.isArray(row[field]) ? (row[field] as unknown[]) : null);
    if (!list("object_types")?.length) addError(errors, "object_types", "This field is required.");
    const events = list("event_types");
    if (!events?.length) addError(errors, "event_types", "This field is required.");
    for (const e of events ?? [])
      if (!(EVENT_TYPES as readonly unknown[]).includes(e)) addError(errors, "event_types", `"${String(e)}" is not a valid choice.`);
    if (row.action_type === "webhook" && row.action_object_type !== "extras.webhook")
      addError(errors, "action_object_type", "A webhook rule's action object is an extras.webhook.");
    if (row.conditions !== null && row.conditions !== undefined) {
      const compiled = compileConditions(row.conditions);
      if (!compiled.ok) addError(errors, "conditions", compiled.message);
    }
  },
};
