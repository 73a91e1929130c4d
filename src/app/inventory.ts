// The Ansible inventory of the live cluster as a use case (`pvectl inventory`, an executable
// inventory script, a library user): the configuration file (pvectl's or the community
// plugin's), the cluster it or the caller names, every guest's host variables and groups.
// Each inventory module is imported by itself, not through inventory/index.ts: that one also
// brings the zod schema, which a plain configuration does not need (every module loaded is
// start-up time Ansible waits for).
import { PveClient } from "../api/client.js";
import { InventoryError } from "../inventory/errors.js";
import { readInventoryFile } from "../inventory/file.js";
import { generateInventory } from "../inventory/generate.js";
import type { AnsibleInventory, FactsLevel } from "../inventory/model.js";
import { type ConnectionChoice, openConnection } from "./connection.js";

export { InventoryError } from "../inventory/errors.js";
export { renderGraph } from "../inventory/graph.js";
export type { AnsibleInventory, FactsLevel } from "../inventory/model.js";

const LEVELS: readonly FactsLevel[] = ["basic", "config", "agent", "plugin"];

export interface ClusterInventoryRequest {
  /** The configuration file: pvectl's, or the community plugin's proxmox.yml as is; absent: the defaults. */
  configFile?: string;
  /** Overrides of the file's settings. */
  facts?: FactsLevel;
  allowEmpty?: boolean;
  placementFacts?: boolean;
  /** Ignore the cache. */
  refresh?: boolean;
  /** The cluster when the file does not name one (a plugin file does): spec connections, else PROXMOX_*. */
  connection?: ConnectionChoice;
  /** Warnings that do not make the inventory wrong (TLS verification off, an entry skipped for a host). */
  onWarning: (message: string) => void;
}

export interface ClusterInventory {
  inventory: AnsibleInventory;
  /** The prefix of pvectl's host variables (`proxmox_` unless configured). */
  factsPrefix: string;
}

export async function clusterInventory(request: ClusterInventoryRequest): Promise<ClusterInventory> {
  const file = await readInventoryFile(request.configFile);
  const config = file.config;
  if (request.facts) {
    if (!LEVELS.includes(request.facts)) {
      throw new InventoryError(`unknown facts level '${request.facts}'`, "use --facts basic, config, agent or plugin");
    }
    config.facts = request.facts;
  }
  if (request.allowEmpty) config.allowEmpty = true;
  if (request.placementFacts === false) config.placementFacts = false;
  const warn = request.onWarning;
  let client: PveClient;
  if (!file.connection) client = await openConnection(request.connection ?? {}, "inventory", { warn });
  else {
    if (request.connection?.files?.length || request.connection?.connection) {
      throw new InventoryError(
        `${request.configFile} is the community plugin's file, which names its own cluster (url, user ...), and --file/--connection name another`,
        "drop --file/--connection, or use a pvectl inventory configuration instead of the plugin's file",
      );
    }
    // The file's url and credentials, under the PROXMOX_* environment (a PROXMOX_FINGERPRINT or PROXMOX_CA_PATH still applies).
    client = PveClient.fromEnv(process.env, { ...file.connection, warn });
  }
  try {
    const inventory = await generateInventory({ api: client, endpoint: client.origin, identity: client.identity }, config, {
      refresh: request.refresh ?? false,
      onWarning: warn,
    });
    return { inventory, factsPrefix: config.factsPrefix };
  } finally {
    await client.close();
  }
}
