// Writes schema/pvectl-spec.schema.json, the JSON Schema editors use to validate and complete
// spec files. Rerun after changing src/sources/spec/raw-schema.ts, a kind's spec-schema.ts or the PVE schema facts:
//   npx tsx scripts/generate-spec-schema.ts
// A test (test/sources/spec-json-schema.test.ts) fails while the committed file is stale.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderSpecJsonSchema } from "../src/sources/spec/json-schema.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "schema", "pvectl-spec.schema.json");
mkdirSync(dirname(target), { recursive: true });
const text = renderSpecJsonSchema();
writeFileSync(target, text);
console.log(`wrote ${target} (${text.length} bytes)`);
