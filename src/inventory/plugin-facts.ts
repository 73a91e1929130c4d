// Host variables named and shaped as community.general's proxmox inventory plugin (6.6.2) sets
// them with `want_facts: true`, so a playbook written against the plugin reads the same
// `proxmox_net0.bridge`, `proxmox_snapshots` or `proxmox_tags_parsed` from pvectl's inventory.
// The rules below are the plugin's, including its quirks (every key starting with `scsi`, such
// as `scsihw`, is read as a disk); docs/inventory.md lists them and where pvectl differs.
import type { InventoryGuest } from "./model.js";

export interface PluginFactsOptions {
  /** The plugin's `facts_prefix` (default `proxmox_`). */
  prefix: string;
}

/** The plugin's fact names: prefix + lower-cased key, spaces dropped, other characters outside [A-Za-z0-9_] made `_`. */
export function pluginFactName(prefix: string, key: string): string {
  return `${prefix}${key.toLowerCase()}`.replace(/ /g, "").replace(/[^A-Za-z0-9_]/g, "_");
}

/** Keys whose value is text for people, never split into a dict even when it looks like `a=b,c=d`. */
const PLAINTEXT_KEYS = new Set(["description"]);

/** The plugin prefixes disk values with `disk_image=` so the volume (which has no key of its own) becomes a dict entry. */
function isDiskKey(key: string): boolean {
  return key === "rootfs" || /^(virtio|sata|ide|scsi)/.test(key);
}

/** `a=1,b=2` -> { a: "1", b: "2" } when every comma-separated part has a `=`; anything else stays as it is. */
function splitProperties(value: string): Record<string, string> | string {
  const parts = value.split(",");
  if (!parts.every((part) => part.includes("="))) return value;
  // fromEntries, not assignment: a part named `__proto__` stays an ordinary key; a repeated key keeps its last value, as a Python dict does.
  return Object.fromEntries(
    parts.map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at), part.slice(at + 1)];
    }),
  );
}

/** Raw `lxc.*` lines arrive as [key, value] pairs; the plugin makes them a dict without the `lxc.` prefix. */
function lxcPairs(value: unknown): Record<string, unknown> | unknown {
  if (!Array.isArray(value)) return value;
  const entries = value.filter((pair): pair is [unknown, unknown] => Array.isArray(pair) && pair.length === 2);
  return Object.fromEntries(entries.map(([k, v]) => [String(k).replace(/^lxc\./, ""), v]));
}

/** One config value as the plugin turns it into a host variable. */
export function pluginConfigValue(key: string, value: unknown): unknown {
  let out = value;
  if (typeof out === "string" && isDiskKey(key)) out = `disk_image=${out}`;
  if (key === "lxc") out = lxcPairs(out);
  if (typeof out === "string" && !PLAINTEXT_KEYS.has(key)) return splitProperties(out);
  return out;
}

/** `proxmox_tags_parsed`: the tag list split on `;` or `,`, each trimmed; absent for an empty list. */
export function pluginTagsParsed(tags: unknown): string[] | undefined {
  if (typeof tags !== "string" || tags.trim() === "") return undefined;
  return tags
    .trim()
    .replace(/,/g, ";")
    .split(";")
    .map((tag) => tag.trim());
}

/** The per-config-key variables, `<prefix>tags_parsed` included. */
function configVars(config: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    vars[pluginFactName(prefix, key)] = pluginConfigValue(key, value);
    if (key === "tags") {
      const parsed = pluginTagsParsed(value);
      if (parsed) vars[`${pluginFactName(prefix, key)}_parsed`] = parsed;
    }
  }
  return vars;
}

/**
 * A guest's host variables at the `plugin` facts level. Needs the guest as collectGuests reads
 * it at that level (config, qmpstatus, snapshots, agent interfaces); what could not be read is
 * left out, as the plugin leaves out what it could not read.
 */
export function pluginHostVars(guest: InventoryGuest, options: PluginFactsOptions): Record<string, unknown> {
  const fact = (name: string) => pluginFactName(options.prefix, name);
  const vars: Record<string, unknown> = { [fact("status")]: guest.status };
  if (guest.type === "qemu" && guest.qmpstatus !== undefined) vars[fact("qmpstatus")] = guest.qmpstatus;
  vars[fact("node")] = guest.node;
  vars[fact("vmid")] = guest.vmid;
  vars[fact("vmtype")] = guest.type;
  Object.assign(vars, configVars(guest.config ?? {}, options.prefix));
  if (guest.agentInterfaces && guest.agentInterfaces.length > 0) vars[fact("agent_interfaces")] = guest.agentInterfaces;
  if (guest.snapshots) vars[fact("snapshots")] = guest.snapshots;
  return vars;
}
