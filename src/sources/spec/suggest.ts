// Moved to resources/spec-section/ (guest kinds and object families write their spec sections
// with it); kept here so the spec loader's modules read as before.
export * from "../../resources/spec-section/suggest.js";
