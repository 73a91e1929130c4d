#!/usr/bin/env node
// After `tsc`: copies the generated data files (src/**/generated/*.json) next to the compiled
// modules in dist/, so the published package reads them without the sources.
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const src = join(root, "src");

function walk(dir) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) walk(full);
    else if (entry.endsWith(".json") && dir.endsWith("/generated")) {
      const target = join(root, "dist", relative(src, full));
      mkdirSync(join(target, ".."), { recursive: true });
      copyFileSync(full, target);
    }
  }
}
walk(src);
