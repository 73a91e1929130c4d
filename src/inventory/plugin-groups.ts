// Two of the community plugin's group options, applied to the built inventory: QEMU guests
// grouped by their QMP status (qemu_extended_statuses) and the hypervisors left out
// (exclude_nodes).
import type { InventoryConfig } from "./config.js";
import type { AnsibleInventory } from "./model.js";

type GroupEntry = { hosts?: string[]; children?: string[] };

function entry(inventory: AnsibleInventory, name: string): GroupEntry | undefined {
  return name === "_meta" ? undefined : (inventory[name] as GroupEntry | undefined);
}

/**
 * As the plugin with qemu_extended_statuses: a running QEMU guest whose QMP status is not
 * `running` (paused, prelaunch ...) is in `all_<qmpstatus>` instead of `all_running`.
 */
export function applyExtendedStatuses(inventory: AnsibleInventory, config: InventoryConfig): void {
  const running = entry(inventory, `${config.groupPrefix}all_running`);
  const qemu = new Set(entry(inventory, `${config.groupPrefix}all_qemu`)?.hosts ?? []);
  if (!running?.hosts) return;
  for (const host of [...running.hosts]) {
    const qmp = inventory._meta.hostvars[host]?.[`${config.factsPrefix}qmpstatus`];
    if (!qemu.has(host) || typeof qmp !== "string" || qmp === "running") continue;
    running.hosts = running.hosts.filter((h) => h !== host);
    const name = `${config.groupPrefix}all_${qmp}`.replace(/[^A-Za-z0-9_]/g, "_");
    const target = entry(inventory, name) ?? {};
    target.hosts = [...(target.hosts ?? []), host].sort();
    inventory[name] = target;
    const all = entry(inventory, "all");
    if (all?.children && !all.children.includes(name)) all.children.push(name);
  }
}

/** As the plugin with exclude_nodes: no `<prefix>nodes` group and none of its hosts. */
export function excludeNodes(inventory: AnsibleInventory, config: InventoryConfig): void {
  const name = `${config.groupPrefix}nodes`;
  const nodes = entry(inventory, name)?.hosts ?? [];
  for (const host of nodes) delete inventory._meta.hostvars[host];
  delete inventory[name];
  const all = entry(inventory, "all");
  if (all?.children) all.children = all.children.filter((g) => g !== name);
}
