#!/usr/bin/env node
// How far a guest kind or an object family reaches outside its own folder: the src/ files (the
// simulator and generated code aside) that import one of its modules or name it, by layer.
// Usage: node scripts/slice-footprint.mjs [root]
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const root = process.argv[2] ?? new URL("..", import.meta.url).pathname;
const src = join(root, "src");

const SLICES = {
  "container kind": {
    folder: "resources/lxc/",
    names: [/"lxc"/, /from\s+"[^"]*\/(lxc\/|ct-|lxc-|container-)[^"]*"/],
  },
  "backup-job family": {
    folder: "resources/backup-job/",
    names: [/"backup-job"/, /\bbackupJobs\b/, /from\s+"[^"]*backup-job[^"]*"/],
  },
};

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

const all = files(src).map((f) => ({ rel: relative(src, f), text: readFileSync(f, "utf8") }));
for (const [slice, { folder, names }] of Object.entries(SLICES)) {
  const inside = all.filter((f) => f.rel.startsWith(folder));
  const outside = all.filter((f) => !f.rel.startsWith(folder) && !f.rel.startsWith(`sim${sep}`) && names.some((n) => n.test(f.text)));
  const layers = new Map();
  for (const f of outside) {
    const layer = f.rel.includes(sep) ? f.rel.split(sep)[0] : "(root)";
    layers.set(layer, [...(layers.get(layer) ?? []), f.rel]);
  }
  console.log(`${slice}: ${inside.length} files in ${folder}, ${outside.length} outside it in ${layers.size} folders`);
  for (const [layer, list] of [...layers].sort()) console.log(`  ${layer}: ${list.length}  ${list.join(" ")}`);
}
