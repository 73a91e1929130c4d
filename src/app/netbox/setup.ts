// What every NetBox use case over records starts from: the sync config, a NetBox client (URL and
// token from the caller, the config or the environment), and one PVE client per connection the
// config's clusters use, opened on first use and closed together.
import { readFileSync } from "node:fs";
import { PveClient } from "../../api/index.js";
import { NetboxClient } from "../../netbox/client.js";
import { resolveConnection } from "../../sources/connections.js";
import type { NetboxConfig } from "../../sources/netbox/config.js";
import { PvectlError } from "../../util/errors.js";

export { loadNetboxConfig, type NetboxConfig } from "../../sources/netbox/config.js";
export type { NetboxClient };

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

/** NetBox as `config` reaches it; `given.url` (a command's --url) wins over the config and NETBOX_URL. */
export function netboxClient(config: NetboxConfig, given: { url?: string }, env: NodeJS.ProcessEnv = process.env): NetboxClient {
  const url = given.url ?? config.netbox.url ?? env.NETBOX_URL;
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

export interface PveClients {
  /** The client of a connection (undefined: the PROXMOX_* environment), made on first use. */
  get: (name: string | undefined) => PveClient;
  close: () => Promise<void>;
}

export function pveClients(config: NetboxConfig): PveClients {
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
