// Reading the inventory's configuration file: pvectl's own keys, or the community plugin's
// YAML as is (told apart by its `plugin:` key). Ansible starts pvectl for every inventory run,
// so the common file (a few `key: value` lines) is read without the yaml library and checked
// without zod: the fast YAML reader of specs (it declines anything it does not read exactly
// as the library does) and config-quick.ts. Anything else takes the full path.
import { readFile } from "node:fs/promises";
import type { PveClientOptions } from "../api/options.js";
import { parseFastYaml } from "../util/yaml-fast/reader.js";
import type { InventoryConfig } from "./config.js";
import { quickInventoryConfig } from "./config-quick.js";
import { InventoryError } from "./errors.js";
import { isPluginConfig, VaultValue } from "./plugin-detect.js";

export interface InventoryFile {
  config: InventoryConfig;
  /** Set when the file is the community plugin's: the connection it names. */
  connection?: Partial<PveClientOptions>;
}

/** Reads pvectl's inventory configuration, or the community plugin's YAML (detected by its `plugin:` key). */
export async function readInventoryFile(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<InventoryFile> {
  if (!path) return { config: await checkedConfig({}, "defaults") };
  const raw = await readYaml(path);
  if (isPluginConfig(raw)) return (await import("./plugin-config.js")).pluginInventory(raw, path, env);
  return { config: await checkedConfig(raw, path) };
}

export async function loadInventoryConfig(path: string | undefined): Promise<InventoryConfig> {
  return (await readInventoryFile(path)).config;
}

/** pvectl's configuration, checked by config-quick.ts when it can, else by the schema (which words the problems). */
async function checkedConfig(raw: unknown, origin: string): Promise<InventoryConfig> {
  return quickInventoryConfig(raw) ?? (await import("./config.js")).parseInventoryConfig(raw, origin);
}

const VAULT_TAG = { tag: "!vault", resolve: () => new VaultValue() };

/** The file's data: read by the fast reader when it is in its subset (no tags, anchors, block scalars ...), else by the library. */
async function readYaml(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new InventoryError(`cannot read inventory configuration ${path}: ${(err as Error).message}`, "check the path given to --config");
  }
  const fast = parseFastYaml(text);
  if (fast) return fast.value;
  const { parse } = await import("yaml");
  try {
    return parse(text, { customTags: [VAULT_TAG] });
  } catch (err) {
    throw new InventoryError(`inventory configuration ${path} is not valid YAML: ${(err as Error).message}`, "fix the YAML syntax");
  }
}
