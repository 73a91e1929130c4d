#!/usr/bin/env node
// Runs the test files through node's own test runner, on JavaScript compiled once beforehand
// (scripts/build-for-tests.mjs: src/ -> dist/, test/ -> dist-test/ ...), so no file pays
// TypeScript start-up and the CLI tests run the freshly built bin/pvectl.js.
// Node 20's `node --test` takes no globs, so the files are found here (in test/, by their .ts
// names, which is what the filters match) and passed explicitly; the runner's closing summary
// (# tests / # pass / # fail) is the figure CI reads.
// Usage: node scripts/run-tests.mjs [substring-filter ...]
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const filters = process.argv.slice(2);

// `npm pack` in this file runs the package's `prepare` (tsc into dist/): it rewrites the modules
// every other test imports, so it runs alone, after the rest.
const REBUILDS_DIST = ["test/package/packed.test.ts"];

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

const build = spawnSync(process.execPath, [join(root, "scripts/build-for-tests.mjs")], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

/** test/x/y.test.ts -> dist-test/x/y.test.js */
const built = (file) => file.replace(/^test\//, "dist-test/").replace(/\.ts$/, ".js");

// With start-up gone the files mostly wait on simulated I/O (servers, child CLIs, Python
// clients): see docs/testing.md for the measurements behind the default.
// PVECTL_TEST_CONCURRENCY overrides it (1 runs the files one after another).
const concurrency = Number(process.env.PVECTL_TEST_CONCURRENCY ?? 4);

// The closing summary of each phase (tap: "# pass 12", spec: "ℹ pass 12"), added up so that a run
// of two phases still ends with one set of figures for the whole suite.
const SUMMARY = /^(?:#|ℹ) (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm;
const totals = new Map();

/** Runs one group of files, passing the output through as it comes; resolves to the exit status. */
function runFiles(group) {
  // Piped, the runner would pick its non-terminal reporter; a terminal keeps getting the readable one.
  const reporter = process.stdout.isTTY ? ["--test-reporter=spec"] : [];
  const child = spawn(process.execPath, ["--test", ...reporter, `--test-concurrency=${concurrency}`, ...group.map(built)], {
    cwd: root,
    stdio: ["inherit", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8");
  let out = "";
  child.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    out += chunk;
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      for (const [, name, count] of out.matchAll(SUMMARY)) totals.set(name, (totals.get(name) ?? 0) + Number(count));
      resolve(code ?? 1);
    });
  });
}

const groups = [files.filter((f) => !REBUILDS_DIST.includes(f)), files.filter((f) => REBUILDS_DIST.includes(f))].filter(
  (g) => g.length > 0,
);
const statuses = [];
for (const group of groups) statuses.push(await runFiles(group));
if (groups.length > 1) {
  console.log(`# whole run (${groups.length} phases)`);
  for (const [name, count] of totals) console.log(`# ${name} ${count}`);
}
process.exit(statuses.find((s) => s !== 0) ?? 0);
