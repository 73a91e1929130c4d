// The seed article's NetBox inventory (netbox.netbox.nb_inventory, shipped with Debian's ansible)
// as a file, and what it needs installed; shared by the nb_inventory conformance test.
import { existsSync } from "node:fs";
import { ansibleMissing } from "../support/conformance.js";

const PLUGIN = "/usr/lib/python3/dist-packages/ansible_collections/netbox/netbox/plugins/inventory/nb_inventory.py";

/** Why the plugin cannot run here, or undefined when it can. */
export function nbInventoryMissing(): string | undefined {
  const ansible = ansibleMissing();
  if (ansible) return ansible;
  if (!existsSync(PLUGIN)) return "the netbox.netbox collection is not installed (Debian's ansible ships it)";
  // The plugin refuses to run without pytz (Debian: python3-tz).
  if (!existsSync("/usr/lib/python3/dist-packages/pytz")) return "python3-tz is not installed (apt-get install python3-tz)";
  return undefined;
}

/**
 * The article's inventory: VMs grouped by cluster and status, so that a play's host pattern
 * `cluster_pve:&status_planned` selects the records still to build; config_context and
 * custom_fields carry what the build reads.
 */
export function articleNetboxYml(url: string, token: string): string {
  return [
    "plugin: netbox.netbox.nb_inventory",
    `api_endpoint: ${url}`,
    `token: ${token}`,
    "validate_certs: false",
    "config_context: true",
    "group_by:",
    "  - cluster",
    "  - status",
    "",
  ].join("\n");
}
