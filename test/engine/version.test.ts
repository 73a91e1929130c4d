// Saved plans are refused across versions, so the version pvectl reports must be the package's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { PVECTL_VERSION } from "../../src/version.js";

it("PVECTL_VERSION is package.json's version", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  assert.equal(PVECTL_VERSION, pkg.version);
});
