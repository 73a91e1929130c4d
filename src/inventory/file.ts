// Reading the inventory's configuration file: pvectl's own keys, or the community plugin's
// YAML as is (told apart by its `plugin:` key).
import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { PveClientOptions } from "../api/options.js";
import { type InventoryConfig, parseInventoryConfig } from "./config.js";
import { InventoryError } from "./errors.js";
import { isPluginConfig, pluginInventory, VaultValue } from "./plugin-config.js";

export interface InventoryFile {
  config: InventoryConfig;
  /** Set when the file is the community plugin's: the connection it names. */
  connection?: Partial<PveClientOptions>;
}

/** Reads pvectl's inventory configuration, or the community plugin's YAML (detected by its `plugin:` key). */
export async function readInventoryFile(path: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<InventoryFile> {
  if (!path) return { config: parseInventoryConfig({}, "defaults") };
  const raw = await readYaml(path);
  if (isPluginConfig(raw)) return pluginInventory(raw, path, env);
  return { config: parseInventoryConfig(raw, path) };
}

export async function loadInventoryConfig(path: string | undefined): Promise<InventoryConfig> {
  return (await readInventoryFile(path)).config;
}

const VAULT_TAG = { tag: "!vault", resolve: () => new VaultValue() };

async function readYaml(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new InventoryError(`cannot read inventory configuration ${path}: ${(err as Error).message}`, "check the path given to --config");
  }
  try {
    return parseYaml(text, { customTags: [VAULT_TAG] });
  } catch (err) {
    throw new InventoryError(`inventory configuration ${path} is not valid YAML: ${(err as Error).message}`, "fix the YAML syntax");
  }
}
