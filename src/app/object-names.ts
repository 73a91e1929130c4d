// How the CLI names cluster objects and their families: asked of the object-family registry
// (resources/objects.ts), re-exported here because the CLI reaches the rest of pvectl through app/.
export { accessNeedsPlurals, foreignText, objectNoun } from "../resources/objects.js";
