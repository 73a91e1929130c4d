// The layer rules of DESIGN.md, checked on every relative import in src/: arrows point down
// only, the simulator models PVE without pvectl's code, and the engine reaches a guest kind
// only through the registry (resources/index.ts), never a kind's own folder.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const ROOT = "(src)";

/** Which top-level folders each layer may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  // The CLI parses flags, calls a use case and renders: app/ is its only door to the rest.
  cli: ["app", "util", ROOT],
  // app/ starts the simulators for `pvectl sim` and the demo (sim-start.ts); the simulator itself imports no pvectl layer.
  app: ["sim", "sources", "inventory", "engine", "resources", "plan", "api", "pve", "schema", "netbox", "util", ROOT],
  sources: ["resources", "plan", "api", "pve", "schema", "netbox", "util"],
  inventory: ["api", "pve", "schema", "netbox", "util"],
  engine: ["resources", "plan", "api", "pve", "schema", "util", ROOT],
  resources: ["plan", "api", "pve", "schema", "util"],
  plan: ["pve", "schema"],
  api: ["pve", "schema", "util", ROOT],
  pve: ["schema", "util"],
  schema: ["util"],
  sim: ["pve", "schema"],
  netbox: ["schema", "util"],
  util: [],
};

interface Import {
  file: string;
  from: string;
  to: string;
  target: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function layerOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0]! : ROOT;
}

function importsOf(file: string): Import[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => {
    const target = resolve(dirname(file), m[1]!);
    return { file: relative(SRC, file), from: layerOf(file), to: layerOf(target), target: relative(SRC, target) };
  });
}

const imports = sourceFiles(SRC).flatMap(importsOf);

describe("layers (DESIGN.md)", () => {
  it("reads the imports of src/ (the check below is not vacuous)", () => {
    assert.ok(imports.length > 500, `only ${imports.length} imports found`);
    assert.ok(imports.some((i) => i.from === "engine" && i.to === "resources"));
  });

  it("every import points down: a layer imports only the layers below it", () => {
    const wrong = imports.filter((i) => i.from !== i.to && i.from !== ROOT && !(ALLOWED[i.from] ?? []).includes(i.to));
    assert.deepEqual(
      wrong.map((i) => `${i.file} imports ${i.target}`),
      [],
    );
  });

  it("the CLI reaches pvectl only through app/: it parses flags, calls a use case and renders", () => {
    const fromCli = imports.filter((i) => i.from === "cli" && i.to !== "cli");
    assert.ok(
      fromCli.some((i) => i.to === "app"),
      "the CLI imports no use case at all",
    );
    const besideApp = fromCli.filter((i) => i.to !== "app" && i.to !== "util" && i.to !== ROOT);
    assert.deepEqual(
      besideApp.map((i) => `${i.file} imports ${i.target}`),
      [],
    );
  });

  it("the engine reaches a guest kind only through the registry, never a kind's folder", () => {
    const intoKinds = imports.filter((i) => i.from === "engine" && i.to === "resources" && i.target.split(sep).length > 2);
    assert.deepEqual(
      intoKinds.map((i) => `${i.file} imports ${i.target}`),
      [],
    );
  });
});
