// The JSON Schema of spec files, for editors (completion and validation while typing).
// Generated from the same zod schema the loader validates with, so the two cannot disagree.
import { z } from "zod";
import { specSchemas } from "./raw-schema.js";

export const SPEC_SCHEMA_ID = "https://pvectl.dev/schema/pvectl-spec.schema.json";

export function specJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(specSchemas().file, { reused: "ref", target: "draft-2020-12" }) as Record<string, unknown>;
  return { ...schema, $id: SPEC_SCHEMA_ID, title: "pvectl spec" };
}
