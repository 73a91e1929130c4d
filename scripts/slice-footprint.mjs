#!/usr/bin/env node
// How far a guest kind or an object family reaches outside its own folder: the files that import
// one of its modules or name it, by folder. By default every file that could need touching for
// it: src/ (the simulator and generated code aside: a new family's simulator handlers are
// expected), test/, docs/ and README.md. With --code, only src/ code: comment lines are left
// aside, since a comment naming a family as an example couples nothing.
// Usage: node scripts/slice-footprint.mjs [--code] [root]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const args = process.argv.slice(2);
const codeOnly = args.includes("--code");
const root = args.find((a) => !a.startsWith("--")) ?? new URL("..", import.meta.url).pathname;

// What names a slice: its literals, its identifiers in the spec document, imports of its folder.
const SLICES = {
  "container kind": {
    folder: "src/resources/lxc/",
    names: [/"lxc"/, /from\s+"[^"]*\/(lxc\/|ct-|lxc-|container-)[^"]*"/],
  },
  "backup-job family": {
    folder: "src/resources/backup-job/",
    names: [/"backup-job"/, /\bbackupJobs\b/, /\bBackupJobSpec\b/, /from\s+"[^"]*backup-job[^"]*"/],
  },
  "access family": {
    folder: "src/resources/access/",
    names: [
      /["'`]access-(?:role|group|user|token|acl|pool)["'`]/,
      // The section key where code reads or writes it (`spec.access`, `access: [...]`, `access?: AccessSpec`).
      /\.access\b/,
      /\baccess\??:\s*(?:\[|AccessSpec|access\b)/,
      /["'`],\s*["'`]access["'`]/,
      /\bAccessSpec\b/,
      /\bcheckTokenSecretFiles\b/,
      /from\s+"[^"]*resources\/access\/[^"]*"/,
      /from\s+"\.\/access\/[^"]*"/,
    ],
  },
};

const TEXT = /\.(ts|mjs|md)$/;

function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" || e.name === "node_modules" ? [] : files(path);
    return TEXT.test(path) ? [path] : [];
  });
}

/** A TypeScript file without its comment lines (--code); other files whole. */
function textOf(path) {
  const text = readFileSync(path, "utf8");
  if (!codeOnly) return text;
  return text
    .split("\n")
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join("\n");
}

const places = codeOnly ? ["src"] : ["src", "test", "docs"];
const found = places.flatMap((p) => files(join(root, p)));
if (!codeOnly && existsSync(join(root, "README.md"))) found.push(join(root, "README.md"));
const all = found
  .map((f) => relative(root, f).split(sep).join("/"))
  .filter((rel) => !rel.startsWith("src/sim/") && (!codeOnly || rel.endsWith(".ts")))
  .map((rel) => ({ rel, text: textOf(join(root, rel)) }));

console.log(codeOnly ? "src/ code only (comments aside), the simulator aside" : "src/, test/, docs/ and README.md, the simulator aside");
for (const [slice, { folder, names }] of Object.entries(SLICES)) {
  const inside = all.filter((f) => f.rel.startsWith(folder));
  const outside = all.filter((f) => !f.rel.startsWith(folder) && names.some((n) => n.test(f.text)));
  const folders = new Map();
  for (const f of outside) {
    const parts = f.rel.split("/");
    const where = parts.length > 2 ? parts.slice(0, 2).join("/") : parts.length > 1 ? parts[0] : "(root)";
    folders.set(where, [...(folders.get(where) ?? []), f.rel]);
  }
  console.log(`${slice}: ${inside.length} files in ${folder}, ${outside.length} outside it in ${folders.size} folders`);
  for (const [where, list] of [...folders].sort()) console.log(`  ${where}: ${list.length}  ${list.join(" ")}`);
}
