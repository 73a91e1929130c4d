// Saved plans and the inventory cache describe the cluster: they are written 0600, whether the
// file is new or already existed with a looser mode.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { savePlan } from "../../src/engine/saved-plan.js";
import type { Plan } from "../../src/plan/types.js";
import { writeCache } from "../../src/inventory/cache.js";

const dir = mkdtempSync(join(tmpdir(), "pvectl-mode-"));
const plan = { target: "https://127.0.0.1:8006", guests: [], preflightErrors: [] } as unknown as Plan;
const content = {
  specFiles: [{ path: "spec.yaml", sha256: "0".repeat(64) }],
  options: { shutdownTimeoutSeconds: 120, forceStop: false, adopt: false },
  cluster: { nodes: ["pve1"] },
  plan,
};
const mode = (path: string) => statSync(path).mode & 0o777;

describe("private files", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("a new saved plan is 0600", async () => {
    const file = join(dir, "new-plan.json");
    await savePlan(file, content);
    assert.equal(mode(file).toString(8), "600");
  });

  it("an existing 0644 plan file is tightened to 0600", async () => {
    const file = join(dir, "old-plan.json");
    writeFileSync(file, "{}");
    chmodSync(file, 0o644);
    await savePlan(file, content);
    assert.equal(mode(file).toString(8), "600");
  });

  it("the inventory cache file is 0600", async () => {
    const cacheDir = join(dir, "cache");
    await writeCache(cacheDir, { endpoint: "https://127.0.0.1:8006", identity: "root@pam", level: "basic" }, { guests: [] } as never);
    const files = readdirSync(cacheDir);
    assert.equal(files.length, 1);
    assert.equal(mode(join(cacheDir, files[0] as string)).toString(8), "600");
  });
});
