#!/usr/bin/env node
// Compiles the TypeScript once so the tests run as plain JavaScript: each test file used to pay
// TypeScript start-up (tsx) on its own, and each CLI test paid it again for the child process.
//
// Every tree keeps its depth next to the original, so a path a file builds from
// `import.meta.url` ("../..", "../fixtures/x.json", "../../../shared/...") means the same in
// the build as in the sources:
//   src/     -> dist/          (what bin/pvectl.js imports: the CLI tests run exactly that)
//   test/    -> dist-test/
//   scripts/ -> dist-scripts/  (the schema generator some tests call)
//   bench/   -> dist-bench/    (a spec builder some tests share with the benchmarks)
// An import from one tree into another ("../../src/x.js" in a test) is pointed at the built tree.
// Files that are not TypeScript (fixtures, .py drivers, playbooks, src/**/generated/*.json) are
// copied next to the built modules. esbuild only strips types here; `npm run typecheck` checks them.
// Usage: node scripts/build-for-tests.mjs
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { build } from "esbuild";

const root = resolve(new URL("..", import.meta.url).pathname);

/** Source tree -> built tree, both relative to the repository root. */
const TREES = { src: "dist", test: "dist-test", scripts: "dist-scripts", bench: "dist-bench" };

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** The built path of a file or folder inside one of the trees, or undefined outside them. */
function builtPath(sourcePath) {
  const rel = relative(root, sourcePath);
  const [top, ...rest] = rel.split(sep);
  const target = TREES[top];
  return target === undefined ? undefined : join(root, target, ...rest);
}

// `from "x"`, `import "x"` and `import("x")`: the module specifiers esbuild leaves in its output.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g;

/** Points a relative import that leaves the file's own tree at the same module in the built tree. */
function retarget(code, sourceFile, outFile) {
  return code.replace(SPECIFIER, (whole, lead, quote, specifier) => {
    const target = resolve(dirname(sourceFile), specifier);
    const [sourceTop] = relative(root, sourceFile).split(sep);
    const [targetTop] = relative(root, target).split(sep);
    if (targetTop === sourceTop) return whole;
    const built = builtPath(target);
    if (built === undefined) return whole;
    let moved = relative(dirname(outFile), built).split(sep).join("/");
    if (!moved.startsWith(".")) moved = `./${moved}`;
    return `${lead}${quote}${moved}${quote}`;
  });
}

async function buildTree(top) {
  const sourceRoot = join(root, top);
  const outRoot = join(root, TREES[top]);
  // A file deleted or moved in the sources must not linger in the build (the runner would find
  // a test that no longer exists, or a module would import a stale copy).
  rmSync(outRoot, { recursive: true, force: true });
  const files = walk(sourceRoot);
  const typescript = files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  for (const file of files.filter((f) => !typescript.includes(f))) {
    const out = builtPath(file);
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
  // One call for the whole tree (esbuild works on the files in parallel); not bundled, so each
  // module stays a file of its own and `import.meta.url` keeps meaning where that file is.
  const result = await build({
    entryPoints: typescript,
    outbase: sourceRoot,
    outdir: outRoot,
    bundle: false,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "inline",
    sourcesContent: false,
    write: false,
    logLevel: "warning",
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
  });
  for (const output of result.outputFiles) {
    const source = join(sourceRoot, relative(outRoot, output.path)).replace(/\.js$/, ".ts");
    mkdirSync(dirname(output.path), { recursive: true });
    writeFileSync(output.path, retarget(output.text, source, output.path));
  }
  return result.outputFiles.length;
}

const started = Date.now();
let total = 0;
for (const top of Object.keys(TREES)) total += await buildTree(top);
console.error(`built ${total} TypeScript files for the tests in ${Date.now() - started} ms`);
