// The inventory's configuration file (YAML): grouping, composed variables, filters,
// facts level and cache. Every key has a default, so an empty file (or none) is valid.
// The defaults live in config-quick.ts, which checks common configurations without zod.
import { z } from "zod";
import { constructedDefaults, inventoryDefaults } from "./config-quick.js";
import { InventoryError } from "./errors.js";

const DEFAULTS = inventoryDefaults();
const CONSTRUCTED = constructedDefaults();

const hostSource = z.enum(["agent", "ipconfig", "netbox"]);

const keyedGroup = z
  .object({
    /** tag | node | pool | status | type | ostype, or any fact name (e.g. proxmox_ostype). */
    key: z.string().min(1),
    prefix: z.string().default(""),
    separator: z.string().default("_"),
  })
  .strict();

/** An Ansible keyed_groups entry (Constructable): `key` is an expression. */
const constructedKeyedGroup = z
  .object({
    key: z.string().min(1),
    prefix: z.string().optional(),
    separator: z.string().optional(),
    default_value: z.string().optional(),
    trailing_separator: z.boolean().optional(),
    parent_group: z.string().optional(),
  })
  .strict();

/** Ansible's constructed options with Jinja expressions (see constructed.ts); the community plugin's YAML maps here. */
const constructedSchema = z
  .object({
    compose: z.record(z.string(), z.unknown()).default(() => constructedDefaults().compose),
    groups: z.record(z.string(), z.unknown()).default(() => constructedDefaults().groups),
    keyed_groups: z.array(constructedKeyedGroup).default(() => constructedDefaults().keyed_groups),
    filters: z.array(z.unknown()).default(() => constructedDefaults().filters),
    strict: z.boolean().default(CONSTRUCTED.strict),
    leading_separator: z.boolean().default(CONSTRUCTED.leading_separator),
  })
  .strict();

export const inventoryConfigSchema = z
  .object({
    /** Prefix of the built-in groups (all_qemu, all_running, <node>_qemu ...), as the community plugin's group_prefix. */
    groupPrefix: z.string().default(DEFAULTS.groupPrefix),
    /** Prefix of the per-host facts (proxmox_vmid, proxmox_node ...). */
    factsPrefix: z.string().default(DEFAULTS.factsPrefix),
    facts: z.enum(["basic", "config", "agent", "plugin"]).default(DEFAULTS.facts),
    /** false: host variables leave out where a guest runs (proxmox_node); the per-node groups stay. */
    placementFacts: z.boolean().default(DEFAULTS.placementFacts),
    /** The hypervisors as hosts of the `<groupPrefix>nodes` group, as the community plugin lists them. */
    nodesGroup: z.boolean().default(DEFAULTS.nodesGroup),
    /** `ansible_host` of each node in the nodes group: its cluster address (the plugin's want_proxmox_nodes_ansible_host). */
    nodesAnsibleHost: z.boolean().default(DEFAULTS.nodesAnsibleHost),
    /** A running VM's status group from QEMU's own state (all_paused, all_prelaunch ...), as the plugin's qemu_extended_statuses; needs facts: plugin. */
    qemuExtendedStatuses: z.boolean().default(DEFAULTS.qemuExtendedStatuses),
    /** Plugin level: read every guest's snapshot list (one more call per guest), not only where the config names a parent. */
    exactSnapshots: z.boolean().default(DEFAULTS.exactSnapshots),
    /** Parallel per-guest reads at the config, agent and plugin levels. */
    concurrency: z.number().int().min(1).max(64).default(DEFAULTS.concurrency),
    includeTemplates: z.boolean().default(DEFAULTS.includeTemplates),
    allowEmpty: z.boolean().default(DEFAULTS.allowEmpty),
    /** Seconds a cached result stays valid; 0 disables the cache. */
    cacheTtl: z.number().int().min(0).default(DEFAULTS.cacheTtl),
    cacheDir: z.string().optional(),
    filters: z
      .object({
        tags: z.array(z.string()).optional(),
        status: z.array(z.string()).optional(),
        nodes: z.array(z.string()).optional(),
        pools: z.array(z.string()).optional(),
        /** Shell-style pattern on the guest name: `web-*`, `db-?`. */
        name: z.string().optional(),
        types: z.array(z.enum(["qemu", "lxc"])).optional(),
      })
      .strict()
      .default(() => inventoryDefaults().filters),
    keyedGroups: z.array(keyedGroup).default(() => inventoryDefaults().keyedGroups),
    /** Where `ansible_host` comes from, first match wins. */
    ansibleHost: z.array(hostSource).default(() => inventoryDefaults().ansibleHost),
    /** Extra host variables: a literal, or a template with `{{ fact_name }}` placeholders. */
    compose: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default(() => inventoryDefaults().compose),
    /** Ansible-style compose / groups / keyed_groups / filters with Jinja expressions. */
    constructed: constructedSchema.optional(),
    /** NetBox facts (netbox_role, netbox_site, netbox_primary_ip4 ...) for keyed groups and ansible_host. */
    netbox: z
      .object({
        url: z.string().url(),
        /** Environment variable holding the NetBox API token (never the token itself). */
        tokenEnv: z.string().default("NETBOX_TOKEN"),
        /** Custom field holding the PVE vmid (written by `pvectl netbox sync`). */
        vmidField: z.string().default("proxmox_vmid"),
        caFile: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((c) => !c.ansibleHost.includes("netbox") || c.netbox !== undefined, {
    message: "ansibleHost lists netbox but no netbox section says where NetBox is",
    path: ["ansibleHost"],
  })
  .refine((c) => !c.qemuExtendedStatuses || c.facts === "plugin", {
    message: "qemuExtendedStatuses needs facts: plugin (QEMU's own state is read at that level only)",
    path: ["qemuExtendedStatuses"],
  });

export type InventoryConfig = z.infer<typeof inventoryConfigSchema>;

export function parseInventoryConfig(raw: unknown, origin: string): InventoryConfig {
  const result = inventoryConfigSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    return `  ${where}: ${issue.message}`;
  });
  throw new InventoryError(
    `invalid inventory configuration in ${origin}:\n${problems.join("\n")}`,
    "fix the keys listed above (see docs/inventory.md)",
  );
}
