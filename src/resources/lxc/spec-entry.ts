// One `containers:` entry's schema, built once: the spec file's schema (through the section
// kind.ts declares) and NetBox's container templates share it.
import { ctSchema } from "./spec-schema.js";

let schema: ReturnType<typeof ctSchema> | undefined;

/** One container's schema, built once from the PVE facts (the spec file's schema and NetBox templates share it). */
export function ctEntrySchema(): ReturnType<typeof ctSchema> {
  schema ??= ctSchema();
  return schema;
}
