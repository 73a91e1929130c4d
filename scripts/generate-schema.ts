// Regenerates src/schema/generated/ from the shared PVE API schema.
// Usage: npx tsx scripts/generate-schema.ts [source dir, default ../shared/pve-api]
// Run only when the schema sources change; the output is committed so that building and
// testing never need ../shared.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSchemaFiles } from "./schema-gen/generate.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = resolve(process.argv[2] ?? join(repoRoot, "..", "shared", "pve-api"));

const { files, dropped } = generateSchemaFiles(sourceDir);
for (const [relativePath, text] of Object.entries(files)) {
  const target = join(repoRoot, relativePath);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${relativePath} (${text.length} bytes)`);
}
console.log(`${dropped.length} facts left out on purpose (prose defaults, unenforced keywords):`);
for (const line of dropped) console.log(`  ${line}`);
