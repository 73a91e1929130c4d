// The community inventory plugin's own YAML (`plugin: community.general.proxmox` or
// `community.proxmox.proxmox`), read as is: its connection settings become the client's, its
// options pvectl's inventory options, its constructed options (compose, groups, keyed_groups,
// filters) Ansible-semantics expressions. An option pvectl cannot honour is an error naming
// it, never silently ignored: the same file must mean the same inventory in both tools.
import type { PveClientOptions } from "../api/options.js";
import type { InventoryConfig } from "./config.js";
import { quickInventoryConfig } from "./config-quick.js";
import { compileConstructed } from "./constructed.js";
import { InventoryError } from "./errors.js";
import { HostEvalError, isTemplate, parseTemplate, pyStr, renderTemplate } from "./jinja/index.js";
import { VaultValue } from "./plugin-detect.js";

export const PLUGIN_NAMES = ["community.general.proxmox", "community.proxmox.proxmox"];

export { isPluginConfig, VaultValue } from "./plugin-detect.js";

const SUPPORTED = [
  "plugin",
  "url",
  "user",
  "password",
  "token_id",
  "token_secret",
  "validate_certs",
  "want_facts",
  "want_proxmox_nodes_ansible_host",
  "facts_prefix",
  "group_prefix",
  "keyed_groups",
  "groups",
  "compose",
  "filters",
  "strict",
  "exclude_nodes",
  "qemu_extended_statuses",
  "leading_separator",
  "use_extra_vars",
  "cache",
  "cache_timeout",
];

/** Options of the plugin (or of Ansible's inventory cache) that pvectl does not support, with why. */
const UNSUPPORTED: Record<string, string> = {
  cache_plugin: "pvectl keeps its own cache (a file per cluster and user); remove it, or use `cache: true` and `cache_timeout`",
  cache_connection: "pvectl keeps its cache in $XDG_CACHE_HOME/pvectl; remove it",
  cache_prefix: "pvectl names its cache files itself; remove it",
};

export interface PluginInventory {
  config: InventoryConfig;
  /** Connection settings from the file (and the plugin's PROXMOX_* fallbacks); the rest comes from pvectl's environment. */
  connection: Partial<PveClientOptions>;
}

function problem(origin: string, key: string, what: string, hint: string): InventoryError {
  return new InventoryError(`${origin}: ${key}: ${what}`, hint);
}

function bool(origin: string, raw: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|yes|on|1|false|no|off|0)$/i.test(value)) return /^(true|yes|on|1)$/i.test(value);
  throw problem(origin, key, `'${pyStr(value)}' is not a boolean`, "use true or false");
}

/** A connection setting: the file's value (templated, with env lookups allowed as the plugin allows them), else the plugin's environment variable. */
function setting(origin: string, raw: Record<string, unknown>, key: string, envName: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = raw[key];
  if (value instanceof VaultValue) {
    throw problem(
      origin,
      key,
      "is an Ansible Vault value, which pvectl cannot decrypt",
      `use "{{ lookup('env', 'MY_VARIABLE') }}" or the ${envName} environment variable instead`,
    );
  }
  if (value === undefined || value === null) return env[envName] || undefined;
  const text = pyStr(value);
  if (!isTemplate(text)) return text;
  try {
    return pyStr(renderTemplate(parseTemplate(text), { vars: {}, env }));
  } catch (err) {
    if (err instanceof HostEvalError)
      throw problem(origin, key, `cannot render '${text}': ${err.message}`, "only lookup('env', NAME) and literals are available here");
    throw err;
  }
}

/** The plugin's url (default http://localhost:8006) as the client's host, port and scheme. */
function connectionFrom(origin: string, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Partial<PveClientOptions> {
  const url = setting(origin, raw, "url", "PROXMOX_URL", env) ?? "http://localhost:8006";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw problem(origin, "url", `'${url}' is not a URL`, "write it as https://pve.example.com:8006");
  }
  const connection: Partial<PveClientOptions> = {
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    protocol: parsed.protocol === "http:" ? "http" : "https",
    port: parsed.port ? Number(parsed.port) : parsed.protocol === "http:" ? 80 : 443,
  };
  const user = setting(origin, raw, "user", "PROXMOX_USER", env);
  const password = setting(origin, raw, "password", "PROXMOX_PASSWORD", env);
  const tokenId = setting(origin, raw, "token_id", "PROXMOX_TOKEN_ID", env);
  const tokenSecret = setting(origin, raw, "token_secret", "PROXMOX_TOKEN_SECRET", env);
  if (user) connection.user = user;
  // As the plugin: a password wins; otherwise both token settings are needed.
  if (password) connection.password = password;
  else if (tokenId && tokenSecret) Object.assign(connection, { tokenId, tokenSecret });
  else
    throw problem(
      origin,
      "password",
      "neither a password nor both token_id and token_secret are set",
      "set password, or token_id and token_secret (or PROXMOX_PASSWORD / PROXMOX_TOKEN_ID and PROXMOX_TOKEN_SECRET)",
    );
  if (raw.validate_certs !== undefined) connection.validateCerts = bool(origin, raw, "validate_certs", true);
  return connection;
}

function checkKeys(origin: string, raw: Record<string, unknown>): void {
  for (const key of Object.keys(raw)) {
    if (key in UNSUPPORTED) throw problem(origin, key, "is not supported by pvectl", UNSUPPORTED[key]!);
    if (!SUPPORTED.includes(key)) {
      throw problem(origin, key, "is not an option pvectl knows for the community plugin's file", `supported: ${SUPPORTED.join(", ")}`);
    }
  }
  if (!PLUGIN_NAMES.includes(String(raw.plugin))) {
    throw problem(
      origin,
      "plugin",
      `'${pyStr(raw.plugin)}' is not the Proxmox inventory plugin`,
      `pvectl reads files for ${PLUGIN_NAMES.join(" or ")}`,
    );
  }
  if (bool(origin, raw, "use_extra_vars", false)) {
    throw problem(
      origin,
      "use_extra_vars",
      "extra vars do not exist outside ansible-playbook",
      "remove it (pvectl runs without Ansible's extra vars)",
    );
  }
}

/** The options in pvectl's terms, checked: without the schema library when they are simple (config-quick.ts). */
async function checkedConfig(mapped: Record<string, unknown>, origin: string): Promise<InventoryConfig> {
  const quick = quickInventoryConfig(mapped);
  if (quick) return quick;
  const { inventoryConfigSchema } = await import("./config.js");
  const parsed = inventoryConfigSchema.safeParse(mapped);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues
    .map((i) => `${i.path.join(".").replace(/^constructed\./, "") || "(top level)"}: ${i.message}`)
    .join("; ");
  throw new InventoryError(
    `invalid community plugin configuration in ${origin}: ${where}`,
    "fix the options named above (see docs/inventory.md)",
  );
}

export async function pluginInventory(
  raw: Record<string, unknown>,
  origin: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PluginInventory> {
  checkKeys(origin, raw);
  const wantFacts = bool(origin, raw, "want_facts", false);
  const extended = bool(origin, raw, "qemu_extended_statuses", false);
  if (extended && !wantFacts)
    throw problem(origin, "qemu_extended_statuses", "needs want_facts: true", "set want_facts: true (as the plugin requires)");
  const cacheTimeout = raw.cache_timeout === undefined ? 3600 : Number(raw.cache_timeout);
  const mapped = {
    facts: wantFacts ? "plugin" : "basic",
    groupPrefix: raw.group_prefix ?? "proxmox_",
    factsPrefix: raw.facts_prefix ?? "proxmox_",
    // The plugin adds no tag groups and sets no ansible_host for guests unless compose says so.
    keyedGroups: [],
    ansibleHost: [],
    cacheTtl: bool(origin, raw, "cache", false) ? cacheTimeout : 0,
    qemuExtendedStatuses: extended,
    // The plugin lists the hypervisors unless exclude_nodes (community.proxmox) says not to.
    nodesGroup: !bool(origin, raw, "exclude_nodes", false),
    nodesAnsibleHost: bool(origin, raw, "want_proxmox_nodes_ansible_host", false),
    constructed: {
      compose: raw.compose ?? {},
      groups: raw.groups ?? {},
      keyed_groups: raw.keyed_groups ?? [],
      filters: raw.filters ?? [],
      strict: bool(origin, raw, "strict", false),
      leading_separator: bool(origin, raw, "leading_separator", true),
    },
  };
  const config = await checkedConfig(mapped, origin);
  // Every expression is parsed now, so one outside the supported subset fails before anything is read.
  if (config.constructed) compileConstructed(config.constructed);
  return { config, connection: connectionFrom(origin, raw, env) };
}
