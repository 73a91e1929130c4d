// What every `pvectl netbox` command over records shares: the config and record-selection flags,
// and the clients (NetBox, one PVE client per connection) they open.
import type { Command } from "commander";
import { NetboxSetupError, netboxClient, pveClients } from "../../app/netbox/setup.js";

// The clients come from app/netbox/setup.ts; the commands import them from here with their flags.
export { NetboxSetupError, netboxClient, pveClients };

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
