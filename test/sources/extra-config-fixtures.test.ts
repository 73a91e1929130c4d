// Real VM configs (qemu-server's own test configs, test/fixtures/pve-configs): every key in
// them has a place in a spec — a structured field, or the escape hatch, whose PVE-rule check
// accepts the real value — unless it is PVE's own bookkeeping.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { parseConfigFile } from "../../src/pve/config-file.js";
import { checkExtraConfig } from "../../src/resources/qemu/spec-extra-config.js";
import { isNotSettable, ownedKeyHint } from "../../src/resources/qemu/spec-owned-keys.js";

const DIR = new URL("../fixtures/pve-configs/", import.meta.url);
const files = readdirSync(DIR).filter((name) => name.startsWith("qemu__") && name.endsWith(".conf"));

describe("the escape hatch against real VM configs", () => {
  it("has real configs to read", () => {
    assert.ok(files.length >= 10, `only ${files.length} qemu configs in test/fixtures/pve-configs`);
  });

  it("accepts every key and value that is not modelled or bookkeeping", () => {
    const refused: string[] = [];
    let checked = 0;
    for (const name of files) {
      const config = parseConfigFile(readFileSync(new URL(name, DIR), "utf8"), { kind: "qemu" });
      for (const [key, value] of Object.entries(config.current)) {
        if (ownedKeyHint(key) !== undefined || isNotSettable(key)) continue;
        const result = checkExtraConfig(key, value);
        checked++;
        if (!result.ok) refused.push(`${name}: ${key}=${value}: ${result.message}`);
      }
    }
    assert.deepEqual(refused, []);
    assert.ok(checked >= 20, `only ${checked} escape-hatch keys were checked`);
  });

  it("refuses a real key's value once it is broken", () => {
    assert.deepEqual(checkExtraConfig("smbios1", "uuid=not-a-uuid"), {
      ok: false,
      part: "value",
      message:
        'PVE would refuse "uuid=not-a-uuid" for `smbios1`: invalid format - format error; smbios1.uuid: value does not match the regex pattern',
    });
    assert.deepEqual(checkExtraConfig("parent", "snap1"), {
      ok: false,
      part: "key",
      message: "`parent` cannot be set through a spec (PVE keeps it itself or it belongs to a single API call)",
    });
  });
});
