// The generated files are committed so building and testing never need ../shared.
// When the shared schema sources are present, this proves the committed files are exactly
// what the generator produces from them (rerun `npx tsx scripts/generate-schema.ts` if not).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { generateSchemaFiles } from "../../scripts/schema-gen/generate.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const sourceDir = fileURLToPath(new URL("../../../shared/pve-api/", import.meta.url));
const haveSources = existsSync(`${sourceDir}apidata.json`);

describe("committed schema output", () => {
  it("matches what scripts/generate-schema.ts produces from ../shared/pve-api", {
    skip: haveSources ? false : `skipped: ${sourceDir} not present (the generator's sources are optional)`,
  }, () => {
    const { files } = generateSchemaFiles(sourceDir);
    assert.deepEqual(Object.keys(files).sort(), [
      "src/schema/generated/api-types.ts",
      "src/schema/generated/endpoints.json",
      "src/schema/generated/formats.json",
    ]);
    for (const [relativePath, expected] of Object.entries(files)) {
      const committed = readFileSync(`${repoRoot}${relativePath}`, "utf8");
      assert.ok(committed === expected, `${relativePath} is out of date: run npx tsx scripts/generate-schema.ts and commit the result`);
    }
  });

  it("is deterministic: two runs give identical text", { skip: haveSources ? false : `skipped: ${sourceDir} not present` }, () => {
    assert.deepEqual(generateSchemaFiles(sourceDir).files, generateSchemaFiles(sourceDir).files);
  });
});
