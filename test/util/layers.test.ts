// The layer rules of DESIGN.md, checked on every relative import in src/: arrows point down
// only, the simulator models PVE without pvectl's code, the engine reaches a guest kind only
// through the registry (resources/index.ts), never a kind's own folder (nor does the spec
// loader, sources/spec/, which assembles the kinds' sections from the registry), and no layer above
// resources/ reaches an object family but through its registry (resources/objects.ts). Beyond
// imports: no code outside a kind's folder tells the kinds apart by their names ("qemu", "lxc"),
// and engine, app, cli and sources name no object family (its section key, its object kinds).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { objectKinds, specSectionKeys } from "../../src/resources/objects.js";

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

/** The object families' folders (resources/<family>/), as the registry imports their definitions. */
const FAMILY_FOLDERS = [...readFileSync(join(SRC, "resources", "objects.ts"), "utf8").matchAll(/from\s+"\.\/([\w-]+)\/family\.js"/g)].map(
  (m) => join("resources", m[1]!) + sep,
);

/** The guest kinds' folders (resources/<kind>/), as the registry imports their contracts. */
const KIND_FOLDERS = [...readFileSync(join(SRC, "resources", "index.ts"), "utf8").matchAll(/from\s+"\.\/([\w-]+)\/kind\.js"/g)].map(
  (m) => join("resources", m[1]!) + sep,
);

/** The layers that may know a family only through the registry. */
const FAMILY_USERS = ["engine", "app", "cli", "sources"];

/** Imports from those layers straight into a family's folder. */
function intoFamilyFolders(list: Import[]): string[] {
  return list
    .filter((i) => FAMILY_USERS.includes(i.from) && FAMILY_FOLDERS.some((folder) => i.target.startsWith(folder)))
    .map((i) => `${i.file} imports ${i.target}`);
}

/** A line that is a comment: a comment naming a family as an example couples nothing. */
const COMMENT = /^\s*(\/\/|\*|\/\*)/;

/** Every family's words as the registry has them: its section key ("backupJobs") and its object kinds ("access-acl"). */
const FAMILY_WORDS = [...specSectionKeys(), ...objectKinds()];
const familyLiteral = new RegExp(`(["'\`])(${FAMILY_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\1`);

/**
 * Words that are spelled like a family's but are not the family, each exempt only in its own
 * context and folder: NetBox's 802.1Q interface mode "access" (an untagged port, read where
 * NetBox records become guests and where their shapes are listed for `access needs -c`), and
 * the `pvectl access` command's own name. The context is removed from the line before the
 * check, so the same line naming the family as well is still reported.
 */
const NOT_THE_FAMILY: Array<{ under: string[]; context: RegExp }> = [
  { under: ["sources/netbox/", "app/netbox/", "app/access-netbox-shapes.ts"], context: /mode === "access"|mode: \{ value: "access" \}/g },
  { under: ["cli/commands/index.ts", "cli/commands/access.ts"], context: /\.command\("access"\)|term: "access"/g },
];

/** The layers that name no family: they ask the registry. */
const FAMILY_FREE = ["engine", "app", "cli", "sources"];

/** Lines of one file (path relative to src/, with /) that name a family by its words. */
function familyWordsIn(rel: string, text: string): string[] {
  const exempt = NOT_THE_FAMILY.filter((e) => e.under.some((place) => rel.startsWith(place)));
  return text.split("\n").flatMap((line, i) => {
    if (COMMENT.test(line)) return [];
    const rest = exempt.reduce((l, e) => l.replace(e.context, ""), line);
    return familyLiteral.test(rest) ? [`${rel}:${i + 1}: ${line.trim()}`] : [];
  });
}

describe("layers (DESIGN.md)", () => {
  it("every folder of src/ has its row in the layers table (a new folder cannot slip past the rules)", () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    assert.deepEqual(
      folders.filter((f) => !Object.hasOwn(ALLOWED, f)),
      [],
    );
  });

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

  it("the spec loader (sources/spec/) reaches a guest kind only through the registry, never a kind's folder", () => {
    assert.ok(KIND_FOLDERS.length >= 2, `kind folders found: ${KIND_FOLDERS.join(", ")}`);
    const intoKinds = imports.filter(
      (i) => i.file.startsWith(join("sources", "spec") + sep) && KIND_FOLDERS.some((f) => i.target.startsWith(f)),
    );
    assert.deepEqual(
      intoKinds.map((i) => `${i.file} imports ${i.target}`),
      [],
    );
  });

  it('names a guest kind ("qemu", "lxc") only in its folder, the registry, and the folders that speak PVE\'s vocabulary', () => {
    // Everything else asks the kind (resources/kind.ts) what differs, so a new kind is a folder and a registry line.
    // PVE's own vocabulary: the simulator, the API client, PVE's formats and its schema name the guest types as PVE
    // does. inventory/ sits below resources/ (no registry to ask) and reports PVE's guest types as PVE lists them.
    const exempt = ["sim", "api", "pve", "schema", "inventory"];
    const kindHomes = [join("resources", "qemu") + sep, join("resources", "lxc") + sep, join("resources", "index.ts")];
    const literal = /(["'`])(qemu|lxc)\1/;
    const found = sourceFiles(SRC).flatMap((file) => {
      const rel = relative(SRC, file);
      if (exempt.includes(layerOf(file)) || kindHomes.some((home) => rel.startsWith(home)) || rel.includes(`generated${sep}`)) return [];
      return readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (literal.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
    });
    assert.deepEqual(found, []);
  });

  it("the kind-name rule sees a literal where one is written (it is not vacuous)", () => {
    const sample = readFileSync(join(SRC, "resources", "lxc", "kind.ts"), "utf8");
    assert.match(sample, /(["'`])lxc\1/);
  });

  it("finds the object families' folders in the registry (the check below is not vacuous)", () => {
    assert.ok(FAMILY_FOLDERS.length >= 2, `family folders found: ${FAMILY_FOLDERS.join(", ")}`);
    for (const folder of FAMILY_FOLDERS)
      assert.ok(
        imports.some((i) => i.target.startsWith(folder)),
        `nothing imports ${folder}`,
      );
  });

  it("engine, app, cli and sources reach an object family only through its registry, never the family's folder", () => {
    assert.deepEqual(intoFamilyFolders(imports), []);
  });

  it("engine, app, cli and sources name no object family: no section key or object kind literal, the registry says them", () => {
    const found = sourceFiles(SRC).flatMap((file) => {
      if (!FAMILY_FREE.includes(layerOf(file))) return [];
      return familyWordsIn(relative(SRC, file).split(sep).join("/"), readFileSync(file, "utf8"));
    });
    assert.deepEqual(found, []);
  });

  it("the family-word rule reads the registry's words and reports them outside their exempt contexts", () => {
    assert.ok(FAMILY_WORDS.length >= 4, `family words: ${FAMILY_WORDS.join(", ")}`);
    const [key] = specSectionKeys();
    const [kind] = objectKinds();
    assert.equal(familyWordsIn("engine/x.ts", `const a = spec["${key}"];\n// "${key}" in a comment\nconst b = 1;`).length, 1);
    assert.deepEqual(familyWordsIn("cli/x.ts", `  if (o.kind === '${kind}') return;`), [`cli/x.ts:1: if (o.kind === '${kind}') return;`]);
    // NetBox's interface mode is exempt where NetBox records are read, and nowhere else.
    assert.deepEqual(familyWordsIn("sources/netbox/x.ts", `if (mode === "access") x();`), []);
    assert.equal(familyWordsIn("engine/x.ts", `if (mode === "access") x();`).length, 1);
    assert.equal(familyWordsIn("sources/netbox/x.ts", `if (mode === "access" && key === "access") x();`).length, 1);
  });

  it("the family rule reports an import into a family's folder", () => {
    const folder = FAMILY_FOLDERS[0]!;
    const stray: Import = { file: join("app", "x.ts"), from: "app", to: "resources", target: `${folder}model` };
    assert.deepEqual(intoFamilyFolders([stray]), [`${join("app", "x.ts")} imports ${folder}model`]);
    const throughRegistry: Import = { ...stray, target: join("resources", "objects") };
    assert.deepEqual(intoFamilyFolders([throughRegistry]), []);
  });
});
