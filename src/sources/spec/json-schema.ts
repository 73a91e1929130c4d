// The JSON Schema of spec files, for editors (completion and validation while typing).
// Generated from the same zod schema the loader validates with, so the two cannot disagree.
// Draft 7, the draft every editor integration (yaml-language-server included) supports.
import { z } from "zod";
import { specSchemas } from "./raw-schema.js";

export function specJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(specSchemas().file, { target: "draft-7" }) as Record<string, unknown>;
  // Top-level `x-...` keys are free-form (YAML anchors to reuse with `<<: *name`).
  return { ...schema, patternProperties: { "^x-": {} }, title: "pvectl spec" };
}

/** The committed file's exact text (2-space indent, trailing newline). */
export function renderSpecJsonSchema(): string {
  return `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
}
