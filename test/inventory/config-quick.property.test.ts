// The inventory's fast configuration path must give what the full path gives: a configuration
// config-quick.ts accepts is the schema's result for it (defaults included), a file the fast
// YAML reader accepts is the data the yaml library reads from it, and whatever either declines
// (an invalid value, filters, a `!vault` tag, an anchor, a block scalar ...) still gets the
// schema's result or message through the full path. Checked on generated configurations and
// on generated files of pvectl's keys and the community plugin's.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { parse } from "yaml";
import { inventoryConfigSchema, parseInventoryConfig } from "../../src/inventory/config.js";
import { quickInventoryConfig } from "../../src/inventory/config-quick.js";
import { readInventoryFile } from "../../src/inventory/file.js";
import { isPluginConfig, pluginInventory, VaultValue } from "../../src/inventory/plugin-config.js";
import { parseFastYaml } from "../../src/util/yaml-fast/reader.js";

const KEYS = [
  "groupPrefix",
  "factsPrefix",
  "facts",
  "placementFacts",
  "nodesGroup",
  "nodesAnsibleHost",
  "qemuExtendedStatuses",
  "exactSnapshots",
  "concurrency",
  "includeTemplates",
  "allowEmpty",
  "cacheTtl",
  "cacheDir",
  "filters",
  "keyedGroups",
  "ansibleHost",
  "compose",
  "constructed",
  "netbox",
  "unknownKey",
];
const VALUES: unknown[] = [
  "basic",
  "plugin",
  "agent",
  "config",
  "other",
  "",
  "px_",
  true,
  false,
  0,
  1,
  8,
  64,
  65,
  -1,
  2.5,
  300,
  Number.MAX_SAFE_INTEGER + 2,
  null,
  [],
  ["agent"],
  ["ipconfig", "agent"],
  ["netbox"],
  ["bogus"],
  [{ key: "tag" }],
  {},
  { tags: ["web"] },
  { a: "b" },
  { strict: true },
  { compose: {}, groups: {}, keyed_groups: [], filters: [], strict: false, leading_separator: false },
  { compose: { x: "1" } },
  { filters: ["x"] },
  { strict: "yes" },
  { other: 1 },
  { url: "https://nb.example" },
];

const rawConfig = fc.oneof(
  fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 5 }),
  fc.constantFrom<unknown>(null, undefined, [], "text", 5),
);

describe("inventory configuration without zod", () => {
  it("accepts only what the schema accepts, with the schema's result", () => {
    let accepted = 0;
    fc.assert(
      fc.property(rawConfig, (raw) => {
        const quick = quickInventoryConfig(raw);
        if (quick === undefined) return;
        accepted++;
        const full = inventoryConfigSchema.safeParse(raw ?? {});
        assert.ok(full.success, `the schema refuses what the quick check accepted: ${JSON.stringify(raw)}`);
        assert.deepStrictEqual(quick, full.data);
      }),
      { numRuns: 3000 },
    );
    assert.ok(accepted > 300, `only ${accepted} of 3000 configurations took the quick path`);
  });

  it("takes the quick path for the common files: defaults, a facts level, the plugin's mapping", () => {
    for (const raw of [
      undefined,
      {},
      { facts: "basic" },
      { facts: "plugin", concurrency: 16, nodesGroup: true, ansibleHost: [], keyedGroups: [] },
    ]) {
      assert.deepStrictEqual(quickInventoryConfig(raw), parseInventoryConfig(raw, "test"));
    }
  });
});

// Lines of the files: pvectl's keys and the plugin's, with values in many YAML spellings.
const FILE_KEYS = ["facts", "concurrency", "cacheTtl", "nodesGroup", "groupPrefix", "allowEmpty", "includeTemplates", "cacheDir"];
const PLUGIN_KEYS = [
  "url",
  "user",
  "password",
  "token_id",
  "token_secret",
  "validate_certs",
  "want_facts",
  "group_prefix",
  "facts_prefix",
  "exclude_nodes",
  "strict",
  "cache",
  "cache_timeout",
  "want_proxmox_nodes_ansible_host",
];
const SCALARS = [
  "basic",
  "plugin",
  "16",
  "0",
  "-1",
  "0o17",
  "1e3",
  "2.5",
  "true",
  "false",
  "True",
  "yes",
  "no",
  "on",
  "~",
  "null",
  "",
  "'quoted'",
  '"double"',
  "'it''s'",
  '"a\\tb"',
  "px_",
  "https://pve.example.com:8006",
  "root@pam",
  "s3cret # a comment",
  "\"{{ lookup('env', 'PVE_PASSWORD') }}\"",
  "!vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162",
  "&anchor x",
  "*anchor",
  "|\n  text",
  "[a, b]",
  "{a: 1}",
  "a: b",
  "x\ty",
  "é",
];
const line = (keys: string[]) => fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...SCALARS)).map(([k, v]) => `${k}: ${v}`);
const decoration = fc.constantFrom("", "# comment", "   ", "---", "  indented: 1");
const fileText = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.oneof({ weight: 5, arbitrary: line([...FILE_KEYS, ...PLUGIN_KEYS]) }, { weight: 1, arbitrary: decoration }), {
      maxLength: 8,
    }),
  )
  .map(([plugin, lines]) => `${plugin ? "plugin: community.general.proxmox\n" : ""}${lines.join("\n")}\n`);

const VAULT_TAG = { tag: "!vault", resolve: () => new VaultValue() };

/** What the full path (the yaml library, then the schema) makes of `text`: the result, or the message. */
async function fullPath(text: string, path: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  let raw: unknown;
  try {
    raw = parse(text, { customTags: [VAULT_TAG] });
  } catch {
    return { error: "invalid YAML" };
  }
  try {
    if (isPluginConfig(raw)) return await pluginInventory(raw, path, env);
    return { config: parseInventoryConfig(raw, path) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe("inventory configuration file without the yaml library", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "pvectl-inv-quick-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("the fast reader reads what the library reads, and declines tags, anchors and block scalars", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fileText, (text) => {
        const fast = parseFastYaml(text);
        if (/!vault|&anchor|\*anchor|: \|/.test(text)) assert.equal(fast, undefined, text);
        if (fast === undefined) return;
        accepted++;
        assert.deepStrictEqual(fast.value, parse(text, { customTags: [VAULT_TAG] }), text);
      }),
      { numRuns: 2000 },
    );
    assert.ok(accepted > 200, `only ${accepted} of 2000 files took the fast path`);
  });

  it("readInventoryFile gives the full path's result or message for every file", async () => {
    const env = { PVE_PASSWORD: "from-env" };
    await fc.assert(
      fc.asyncProperty(fileText, async (text) => {
        const path = join(dir, "inventory.yml");
        await writeFile(path, text);
        const got = await readInventoryFile(path, env).catch((err: Error) => ({
          error: err.message.replace(/^inventory configuration .* is not valid YAML: .*/s, "invalid YAML"),
        }));
        assert.deepStrictEqual(got, await fullPath(text, path, env), text);
      }),
      { numRuns: 300 },
    );
  });
});
