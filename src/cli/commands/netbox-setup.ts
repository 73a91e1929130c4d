// What every `pvectl netbox` command over records shares: reaching NetBox (URL, token), one PVE
// client per connection, and the record-selection flags.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { PveClient } from "../../api/index.js";
import { NetboxClient } from "../../netbox/client.js";
import { resolveConnection } from "../../sources/connections.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { PvectlError } from "../../util/errors.js";

/** Something missing before pvectl can talk to NetBox (URL, token): what, and where to give it. */
export class NetboxSetupError extends PvectlError {
  readonly kind = "netbox-config";

  constructor(
    message: string,
    override readonly hint?: string,
  ) {
    super(message);
    this.name = "NetboxSetupError";
  }
}

export interface CommonFlags {
  config: string;
  url?: string;
  cluster?: string[];
  site?: string[];
  tag?: string[];
  name?: string[];
  planOnly?: boolean;
  json?: boolean;
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function netboxClient(config: NetboxConfig, flags: CommonFlags, env: NodeJS.ProcessEnv = process.env): NetboxClient {
  const url = flags.url ?? config.netbox.url ?? env.NETBOX_URL;
  if (!url) throw new NetboxSetupError("no NetBox URL", `give --url, set \`netbox.url\` in ${config.file}, or export NETBOX_URL`);
  let token: string | undefined;
  if (config.netbox.tokenFile) {
    try {
      token = (readFileSync(config.netbox.tokenFile, "utf8").split(/\r?\n/)[0] ?? "").trim();
    } catch (err) {
      throw new NetboxSetupError(
        `netbox.tokenFile ${config.netbox.tokenFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
        `fix the path in ${config.file}`,
      );
    }
  } else token = env[config.netbox.tokenEnv]?.trim();
  if (!token) {
    throw new NetboxSetupError(
      "no NetBox token",
      `export ${config.netbox.tokenEnv} (a v1 key of 40 hex digits, or a v2 token nbt_<key>.<secret>), or set \`netbox.tokenFile\` in ${config.file}`,
    );
  }
  return new NetboxClient({
    url,
    token,
    ...(config.netbox.caFile ? { caFile: config.netbox.caFile } : {}),
    insecure: config.netbox.insecure,
  });
}

export function pveClients(config: NetboxConfig): { get: (name: string | undefined) => PveClient; close: () => Promise<void> } {
  const clients = new Map<string, PveClient>();
  return {
    get(name) {
      const key = name ?? "";
      let client = clients.get(key);
      if (!client) {
        client = new PveClient(resolveConnection({ connections: config.connections }, name));
        clients.set(key, client);
      }
      return client;
    },
    close: async () => {
      await Promise.all([...clients.values()].map((c) => c.close()));
    },
  };
}

export function selectionOf(flags: CommonFlags) {
  return {
    ...(flags.cluster?.length ? { clusters: flags.cluster } : {}),
    ...(flags.site?.length ? { sites: flags.site } : {}),
    ...(flags.tag?.length ? { tags: flags.tag } : {}),
    ...(flags.name?.length ? { names: flags.name } : {}),
  };
}

/** The config and the flags that narrow which records a command reads. */
export function addRecordFlags(cmd: Command): Command {
  return cmd
    .requiredOption("-c, --config <file>", "NetBox sync config (YAML; keys in docs/netbox.md)")
    .option("--url <url>", "NetBox URL (default: netbox.url in the config, else NETBOX_URL)")
    .option("--cluster <name>", "only records of this NetBox cluster (repeatable; narrows select.clusters, never widens it)", collect)
    .option("--site <slug>", "only records of this site (repeatable; narrows select.sites)", collect)
    .option("--tag <slug>", "only records with this tag (repeatable; all must match, with select.tags)", collect)
    .option("--name <name>", "only the record with this name (repeatable)", collect)
    .option("--json", "print the result as JSON");
}
