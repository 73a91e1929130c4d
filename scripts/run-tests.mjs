#!/usr/bin/env node
// Runs the test files through node's own test runner, on JavaScript compiled once beforehand
// (scripts/build-for-tests.mjs: src/ -> dist/, test/ -> dist-test/ ...), so no file pays
// TypeScript start-up and the CLI tests run the freshly built bin/pvectl.js.
// The files are found here (in test/, by their .ts names, which is what the filters match) and
// handed to node:test's run() in the order chosen below (`node --test` would sort them); the
// closing summary (# tests / # pass / # fail) is the figure CI reads, followed by the files that
// took longest.
// Usage: node scripts/run-tests.mjs [substring-filter ...]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { batchEntries } from "./test-batches.mjs";

const root = new URL("..", import.meta.url).pathname;
const filters = process.argv.slice(2);

// The longest files start first: with four files at a time, a long file started last would run on
// alone at the end while the other slots sit idle. Measured durations are in docs/testing.md.
const LONGEST_FIRST = [
  "test/journey/estate.test.ts",
  "test/package/packed.test.ts",
  "test/conformance/ansible-modules.test.ts",
  "test/sources/large-spec-positions.test.ts",
  "test/sources/spec-fuzz.test.ts",
];

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (entry.endsWith(".test.ts")) found.push(relative(root, full));
  }
  return found;
}

const rank = (file) => (LONGEST_FIRST.includes(file) ? LONGEST_FIRST.indexOf(file) : LONGEST_FIRST.length);
const files = findTests(join(root, "test"))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort()
  .sort((a, b) => rank(a) - rank(b));
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

// The test files run from the repository root, wherever the runner was started (paths in tests,
// and the in-process CLI's, are relative to it).
process.chdir(root);
// Small files share a process, several to one (scripts/test-batches.mjs); PVECTL_TEST_ISOLATE=1
// gives every file its own, as `node --test` would.
const entries =
  process.env.PVECTL_TEST_ISOLATE === "1"
    ? files.map((f) => join(root, built(f)))
    : batchEntries(root, files, built, (f) => LONGEST_FIRST.includes(f));
const stream = run({ files: entries, concurrency });
// Per file, the time its top-level tests took (they run one after another within a file).
const fileMs = new Map();
stream.on("test:pass", (t) => t.nesting === 0 && fileMs.set(t.file, (fileMs.get(t.file) ?? 0) + t.details.duration_ms));
stream.on("test:fail", (t) => {
  if (!t.todo) process.exitCode = 1;
  if (t.nesting === 0) fileMs.set(t.file, (fileMs.get(t.file) ?? 0) + t.details.duration_ms);
});
// A terminal gets the readable reporter; anything else (CI, a pipe) gets TAP.
const reporting = stream.compose(process.stdout.isTTY ? spec : tap);
reporting.pipe(process.stdout, { end: false });
reporting.on("end", () => {
  const longest = [...fileMs].sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log("# longest files (seconds of their tests)");
  for (const [file, ms] of longest) console.log(`#   ${(ms / 1000).toFixed(1).padStart(6)}  ${relative(root, file)}`);
});
