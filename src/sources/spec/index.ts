// Public API of the spec-file source: load spec files into the normalized model the engine
// consumes, or get a SpecError that lists every problem with file:line:column.
export { SpecError, type SpecIssue, type SpecPath, formatIssue, formatPath } from "./errors.js";
export { loadSpecFiles, parseSpec } from "./load.js";
export * from "./model.js";
export { specJsonSchema } from "./json-schema.js";
export { describeCt } from "../../resources/index.js";
export type { ObjectSections } from "../../resources/objects.js";
