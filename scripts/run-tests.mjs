#!/usr/bin/env node
// Runs every test file through node's own test runner.
// Node 20's `node --test` takes no globs and skips .ts files when discovering tests,
// so the files are found here and passed explicitly; the runner's closing summary
// (# tests / # pass / # fail) is the figure CI reads.
// Usage: node scripts/run-tests.mjs [substring-filter ...]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const filters = process.argv.slice(2);

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (entry.endsWith(".test.ts")) found.push(relative(root, full));
  }
  return found;
}

const files = findTests(join(root, "test"))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error(`no test files matched ${filters.join(" ") || "test/**/*.test.ts"}`);
  process.exit(1);
}
// Most test files wait on simulated I/O rather than compute, so three files at a time keep two
// cores busy; PVECTL_TEST_CONCURRENCY overrides it (1 runs the files one after another).
const concurrency = Number(process.env.PVECTL_TEST_CONCURRENCY ?? 3);
const result = spawnSync(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...files], {
  cwd: root,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
