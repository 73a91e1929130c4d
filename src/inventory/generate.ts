// Generating the inventory: collect (or read the cache), select, build, and refuse to hand
// Ansible an empty inventory unless that was asked for.
import type { NetboxClient } from "../netbox/client.js";
import { buildInventory } from "./build.js";
import { type CacheKey, defaultCacheDir, readCache, writeCache } from "./cache.js";
import { type CollectResult, collectGuests, type InventoryApi } from "./collect.js";
import type { InventoryConfig } from "./config.js";
import { InventoryError } from "./errors.js";
import { guestFilter } from "./filters.js";
import type { AnsibleInventory, InventoryGuest } from "./model.js";
import { netboxFacts } from "./netbox.js";

/** Loaded only when the configuration reads NetBox: most inventories do not, and every module loaded is start-up time Ansible waits for. */
async function netboxClientFor(settings: NonNullable<InventoryConfig["netbox"]>): Promise<NetboxClient> {
  const token = process.env[settings.tokenEnv];
  if (!token) {
    throw new InventoryError(
      `the inventory configuration reads NetBox at ${settings.url}, but ${settings.tokenEnv} is not set`,
      `export ${settings.tokenEnv}=<a NetBox API token with read access to virtual machines>`,
    );
  }
  const { NetboxClient } = await import("../netbox/client.js");
  return new NetboxClient({ url: settings.url, token, ...(settings.caFile ? { caFile: settings.caFile } : {}) });
}

export interface InventorySource {
  api: InventoryApi;
  /** NetBox to read facts from when the configuration has a netbox section (built from it when absent). */
  netbox?: Pick<NetboxClient, "list">;
  /** Identifies the cluster and the caller for the cache (e.g. "https://pve:8006" and "user@pve!token"). */
  endpoint: string;
  identity: string;
}

export interface GenerateOptions {
  refresh?: boolean;
  now?: number;
  /** Told what was left out without failing (a compose or group entry that failed for a host, not strict). */
  onWarning?: (message: string) => void;
}

/** The constructed options (compose, groups, keyed_groups, filters) on top of the built inventory. */
async function finishInventory(inventory: AnsibleInventory, config: InventoryConfig, options: GenerateOptions): Promise<void> {
  if (config.constructed) {
    // Loaded only here: the expression engine is start-up time an inventory without these options does not need.
    const { applyConstructed } = await import("./constructed.js");
    const { skipped } = applyConstructed(inventory, config.constructed, `${config.groupPrefix}nodes`);
    for (const message of skipped) options.onWarning?.(message);
  }
}

export async function generateInventory(
  source: InventorySource,
  config: InventoryConfig,
  options: GenerateOptions = {},
): Promise<AnsibleInventory> {
  // Per-guest facts are read only for the selected guests, and node addresses only when asked: both are part of what a cache entry holds.
  const selection = JSON.stringify({
    filters: config.filters,
    templates: config.includeTemplates,
    nodeAddresses: config.nodesAnsibleHost,
    exactSnapshots: config.exactSnapshots,
  });
  const key: CacheKey = { endpoint: source.endpoint, identity: source.identity, level: config.facts, selection };
  const dir = config.cacheDir ?? defaultCacheDir();
  let collected: CollectResult | undefined;
  if (config.cacheTtl > 0 && !options.refresh) collected = await readCache(dir, key, config.cacheTtl, options.now);
  if (!collected) {
    collected = await collectGuests(source.api, {
      level: config.facts,
      concurrency: config.concurrency,
      select: guestFilter(config),
      exactSnapshots: config.exactSnapshots,
      nodeAddresses: config.nodesGroup && config.nodesAnsibleHost,
    });
    if (config.cacheTtl > 0) await writeCache(dir, key, collected, options.now);
  }
  let extraFacts: Map<InventoryGuest, Record<string, unknown>> | undefined;
  if (config.netbox) {
    const netbox = source.netbox ?? (await netboxClientFor(config.netbox));
    extraFacts = await netboxFacts(netbox, collected.guests, { vmidField: config.netbox.vmidField });
  }
  const inventory = buildInventory(collected.guests, config, { nodes: collected.nodes ?? [], ...(extraFacts ? { extraFacts } : {}) });
  await finishInventory(inventory, config, options);
  // Guests, not hosts: the nodes group's hypervisors must not make an inventory without guests look full
  // (counted after the constructed filters, which may leave guests out).
  const nodeHosts = new Set((inventory[`${config.groupPrefix}nodes`] as { hosts?: string[] } | undefined)?.hosts ?? []);
  const guestHosts = Object.keys(inventory._meta.hostvars).filter((host) => !nodeHosts.has(host)).length;
  if (guestHosts === 0 && !config.allowEmpty) {
    const seen = collected.guests.length;
    const why =
      seen === 0
        ? `the cluster at ${source.endpoint} reports no guests visible to ${source.identity}`
        : `${seen} guest(s) exist but none passed the filters${config.includeTemplates ? "" : " (templates are excluded unless includeTemplates is set)"}`;
    throw new InventoryError(
      `the inventory is empty: ${why}`,
      "check the filters and that the user or token has VM.Audit on the guests; pass --allow-empty if an empty inventory is expected",
    );
  }
  return inventory;
}
