// A file a spec has pvectl write (today a new API token's secretFile, which the access family
// names through the registry) follows the operator's secret policy like every file a spec
// names: pvectl writes it only in the spec file's own directory tree or a --secrets-dir, never
// through `..`, an absolute path elsewhere or a symlinked directory that leads out. Refused
// before any client exists, with the entry's file:line and what is allowed.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEFAULT_SECRET_POLICY, secretPolicy } from "../../src/sources/secret-policy.js";
import { checkWrittenFiles, SecretFileRefusedError } from "../../src/sources/written-files.js";
import { writtenFilesOf } from "../../src/resources/objects.js";
import { parseSpec } from "../../src/sources/spec/index.js";
import { pvectl } from "../support/cli.js";

describe("a token's secretFile", () => {
  let dir = "";
  let specDir = "";
  let outside = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "pvectl-secretfile-"));
    specDir = join(dir, "specs");
    outside = join(dir, "elsewhere");
    mkdirSync(join(specDir, "tokens"), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(specDir, "out"));
    symlinkSync(join(outside, "planted"), join(specDir, "link.token"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function specText(secretFile: string): string {
    return `version: 1\naccess:\n  users:\n    - id: deploy@pve\n  tokens:\n    - user: deploy@pve\n      name: ci\n      secretFile: ${JSON.stringify(secretFile)}\n`;
  }

  function refusals(secretFile: string, policy = DEFAULT_SECRET_POLICY): string[] {
    const spec = parseSpec(specText(secretFile), join(specDir, "access.yaml"));
    try {
      checkWrittenFiles(writtenFilesOf(spec), policy);
      return [];
    } catch (err) {
      assert.ok(err instanceof SecretFileRefusedError);
      return err.problems;
    }
  }

  it("may be beside the spec or below it", () => {
    assert.deepEqual(refusals("ci.token"), []);
    assert.deepEqual(refusals("tokens/ci.token"), []);
    assert.deepEqual(refusals("tokens/../ci.token"), []);
  });

  it("is refused through .., an absolute path elsewhere, a symlinked directory or a link, with the entry's place", () => {
    for (const path of ["../elsewhere/ci.token", join(outside, "ci.token"), "out/ci.token", "link.token"]) {
      const problems = refusals(path);
      assert.equal(problems.length, 1, path);
      assert.match(
        problems[0]!,
        /^token deploy@pve!ci \(.*access\.yaml:6\): secretFile: refusing to write .*: it would be written to .*elsewhere.*, outside .*specs; .*--secrets-dir DIR$/,
        path,
      );
    }
  });

  it("is allowed in a --secrets-dir, through a link as well", () => {
    const policy = secretPolicy({ secretsDirs: [outside] });
    assert.deepEqual(refusals("out/ci.token", policy), []);
    assert.deepEqual(refusals(join(outside, "ci.token"), policy), []);
  });

  it("makes plan refuse before connecting anywhere", async () => {
    const file = join(specDir, "escape.yaml");
    writeFileSync(file, specText("../elsewhere/ci.token"));
    const result = await pvectl(["plan", file], {
      PROXMOX_HOST: "127.0.0.1",
      PROXMOX_PORT: "9",
      PROXMOX_USER: "root@pam",
      PROXMOX_PASSWORD: "x",
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /token deploy@pve!ci \(.*escape\.yaml:6\): secretFile: refusing to write/);
  });
});
