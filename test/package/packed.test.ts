// The packed package is what `npm i -g pvectl` installs: the README's main command must work
// from it exactly as from a checkout, and every file the commands read or point to must ship.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ROOT } from "../support/cli.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The files `npm pack` would put in the tarball (no build: the listing only). */
function packedFiles(): Set<string> {
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [entry] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set((entry?.files ?? []).map((f) => f.path));
}

/**
 * What `npm pack` needs to build and pack the package, copied into `dir`: the package's own
 * files and what its `prepare` (tsc, copy-generated) reads, node_modules linked. Packing the copy
 * builds into the copy's dist/, so the rest of the suite keeps running on the checkout's build
 * meanwhile (and the tarball cannot pick up a module only the test build left in dist/).
 */
function copyForPacking(dir: string): string {
  const copy = join(dir, "checkout");
  const entries = [
    "package.json",
    "README.md",
    "LICENSE",
    "tsconfig.json",
    "tsconfig.build.json",
    "bin",
    "src",
    "scripts",
    "schema",
    "examples",
    "docs",
  ];
  for (const entry of entries) if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  return copy;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

describe("the packed package", () => {
  it("ships every docs/*.md a message or help text points to, and the demo's examples", () => {
    const files = packedFiles();
    const cited = new Set<string>();
    for (const file of sourceFiles(join(ROOT, "src"))) {
      for (const m of readFileSync(file, "utf8").matchAll(/docs\/[a-z0-9-]+\.md/g)) cited.add(m[0]);
    }
    assert.ok(cited.size > 0, "the sources cite documentation files");
    const missing = [...cited].filter((doc) => !files.has(doc));
    assert.deepEqual(missing, [], "cited by the sources but not in the tarball");
    const examples = readdirSync(join(ROOT, "examples")).filter((f) => f.endsWith(".yaml"));
    for (const example of examples) assert.ok(files.has(`examples/${example}`), `examples/${example} ships`);
    assert.ok(files.has("examples/netbox/netbox.yaml"), "the demo's NetBox mapping ships");
  });

  describe("installed with npm i -g into an empty prefix", () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), "pvectl-packed-"));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it("runs `pvectl demo` from anywhere to the inventory, exit 0", { timeout: 600_000 }, () => {
      // `npm pack` builds (prepare), so the tarball holds the current sources, as a release would.
      const tarball =
        execFileSync(npm, ["pack", "--silent", "--pack-destination", dir], {
          cwd: copyForPacking(dir),
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        })
          .trim()
          .split("\n")
          .pop() ?? "";
      const prefix = join(dir, "prefix");
      execFileSync(npm, ["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(dir, tarball)], {
        cwd: dir,
        stdio: "ignore",
      });
      const bin = join(prefix, "bin", "pvectl");
      const run = spawnSync(bin, ["demo", "--timing", "instant"], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: "1" },
      });
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /Apply finished in [\d.]+s: .*created/);
      assert.match(run.stdout, /ansible_host/, "the demo ends with the inventory");
      assert.equal(run.stderr.includes("    at "), false, "no stack trace");
    });
  });
});
