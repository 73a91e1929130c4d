// Turns the selected guests into Ansible's dynamic inventory JSON: built-in groups like the
// community plugin's (all_qemu, all_lxc, all_running, all_stopped, all_templates, per node,
// per pool), keyed groups, per-host facts and composed variables.
import { type AddressSource, pickAnsibleHost } from "./address.js";
import type { InventoryConfig } from "./config.js";
import { selectGuests } from "./filters.js";
import { hostFacts } from "./host-facts.js";
import { assignHostnames } from "./hostnames.js";
import type { AnsibleInventory, InventoryGuest, InventoryNode } from "./model.js";
import { netboxAddress } from "./netbox.js";

/** Ansible's `to_safe`: group names keep only letters, digits and underscores. */
export function safeGroupName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/** Values of a keyed-group key for one host: built-in names, or any host variable (with or without the facts prefix). */
function keyValues(key: string, guest: InventoryGuest, vars: Record<string, unknown>, config: InventoryConfig): string[] {
  const prefix = config.factsPrefix;
  switch (key) {
    case "tag":
    case "tags":
      return guest.tags;
    case "node":
      return config.placementFacts ? [guest.node] : [];
    case "pool":
      return guest.pool ? [guest.pool] : [];
    case "status":
      return [guest.status];
    case "type":
      return [guest.type];
  }
  const value = vars[key] ?? vars[`${prefix}${key}`];
  if (value === undefined || value === null || value === "") return [];
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** `{{ name }}` placeholders filled from the host's variables; undefined when one is missing (the variable is then not set). */
function compose(template: string | number | boolean, vars: Record<string, unknown>): unknown {
  if (typeof template !== "string") return template;
  let missing = false;
  const out = template.replace(PLACEHOLDER, (_, name: string) => {
    const value = vars[name];
    if (value === undefined || value === null) {
      missing = true;
      return "";
    }
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  });
  return missing ? undefined : out;
}

/** `running`, or with qemuExtendedStatuses a VM's qmpstatus (a paused VM is `running` to PVE, `paused` to QEMU). */
function runningGroup(guest: InventoryGuest, config: InventoryConfig): string {
  return config.qemuExtendedStatuses && guest.type === "qemu" && guest.qmpstatus ? guest.qmpstatus : "running";
}

export interface BuildOptions {
  /** More variables per guest (NetBox facts), set before ansible_host, compose and keyed groups. */
  extraFacts?: ReadonlyMap<InventoryGuest, Record<string, unknown>>;
  /** The cluster's nodes, for the nodes group (config `nodesGroup`). */
  nodes?: readonly InventoryNode[];
}

/**
 * The hypervisors as hosts of `<prefix>nodes`, as the community plugin lists them, with
 * `ansible_host` from the node's cluster address when asked (and known, and the node online).
 * A node whose name a guest already uses as its host name joins the group without new variables.
 */
function addNodeHosts(
  nodes: readonly InventoryNode[],
  config: InventoryConfig,
  hostvars: Record<string, Record<string, unknown>>,
  addTo: (group: string, host: string) => void,
): void {
  for (const node of nodes) {
    addTo(`${config.groupPrefix}nodes`, node.name);
    if (hostvars[node.name] !== undefined || !config.nodesAnsibleHost || !node.online || !node.address) continue;
    hostvars[node.name] = { ansible_host: node.address };
  }
}

export function buildInventory(guests: readonly InventoryGuest[], config: InventoryConfig, options: BuildOptions = {}): AnsibleInventory {
  const selected = selectGuests(guests, config);
  const names = assignHostnames(selected);
  const gp = config.groupPrefix;
  const hostvars: Record<string, Record<string, unknown>> = {};
  const groups = new Map<string, Set<string>>();
  const addTo = (group: string, host: string) => {
    const safe = safeGroupName(group);
    const members = groups.get(safe) ?? new Set<string>();
    members.add(host);
    groups.set(safe, members);
  };

  for (const guest of [...selected].sort((a, b) => a.vmid - b.vmid)) {
    const host = names.get(guest) as string;
    const extra = options.extraFacts?.get(guest);
    const vars = { ...hostFacts(guest, config), ...extra };
    const address = pickAnsibleHost(guest, config.ansibleHost as AddressSource[], () => netboxAddress(extra));
    if (address) vars.ansible_host = address;
    for (const [name, template] of Object.entries(config.compose)) {
      const value = compose(template, vars);
      if (value !== undefined) vars[name] = value;
    }
    hostvars[host] = vars;

    if (guest.template) {
      // As in the community plugin, templates belong only to all_templates.
      addTo(`${gp}all_templates`, host);
      continue;
    }
    addTo(`${gp}all_${guest.type}`, host);
    if (guest.status === "running") addTo(`${gp}all_${runningGroup(guest, config)}`, host);
    else if (guest.status === "stopped") addTo(`${gp}all_stopped`, host);
    // Without placement facts, no group says where a guest runs either (placement.ts).
    if (config.placementFacts) addTo(`${gp}${guest.node}_${guest.type}`, host);
    if (guest.pool) addTo(`${gp}pool_${guest.pool}`, host);
    for (const keyed of config.keyedGroups) {
      for (const value of keyValues(keyed.key, guest, vars, config)) {
        addTo(keyed.prefix ? `${keyed.prefix}${keyed.separator}${value}` : value, host);
      }
    }
  }

  if (config.nodesGroup) addNodeHosts(options.nodes ?? [], config, hostvars, addTo);

  const inventory: AnsibleInventory = { _meta: { hostvars } };
  const groupNames = [...groups.keys()].sort();
  for (const name of groupNames) inventory[name] = { hosts: [...(groups.get(name) as Set<string>)].sort() };
  inventory.all = { children: ["ungrouped", ...groupNames.filter((g) => g !== "all" && g !== "ungrouped")] };
  return inventory;
}
