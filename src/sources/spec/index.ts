// Public API of the spec-file source: the normalized model the engine consumes.
export * from "./model.js";
