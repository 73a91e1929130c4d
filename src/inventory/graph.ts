// `pvectl inventory --graph`: what `ansible-inventory -i <pvectl> --graph` prints, without
// Ansible. It replays how Ansible's script plugin loads the JSON (groups in the order given,
// hosts in the order listed, children appended, then every group without a parent under
// `all` and every host without a group in `ungrouped`) and prints the tree as Ansible does.
import type { AnsibleInventory } from "./model.js";

interface Group {
  name: string;
  hosts: string[];
  children: Group[];
  parents: Set<string>;
}

class Loaded {
  readonly groups = new Map<string, Group>();
  readonly hostGroups = new Map<string, Set<string>>();

  constructor() {
    this.group("all");
    this.addChild("all", "ungrouped");
  }

  group(name: string): Group {
    let g = this.groups.get(name);
    if (!g) {
      g = { name, hosts: [], children: [], parents: new Set() };
      this.groups.set(name, g);
    }
    return g;
  }

  addHost(group: string, host: string): void {
    const g = this.group(group);
    if (!g.hosts.includes(host)) g.hosts.push(host);
    const groups = this.hostGroups.get(host) ?? new Set<string>();
    groups.add(group);
    this.hostGroups.set(host, groups);
  }

  addChild(parent: string, child: string): void {
    const p = this.group(parent);
    const c = this.group(child);
    if (!p.children.includes(c)) p.children.push(c);
    c.parents.add(parent);
  }

  /** Ansible's reconcile_inventory. */
  reconcile(): void {
    for (const g of this.groups.values()) if (g.name !== "all" && g.parents.size === 0) this.addChild("all", g.name);
    for (const [host, groups] of this.hostGroups) {
      if (groups.size === 0 || (groups.size === 1 && groups.has("all"))) this.addHost("ungrouped", host);
    }
  }
}

function load(inventory: AnsibleInventory): Loaded {
  const loaded = new Loaded();
  for (const [name, data] of Object.entries(inventory)) {
    if (name === "_meta") continue;
    loaded.group(name);
    const group = data as { hosts?: string[]; children?: string[] };
    for (const host of group.hosts ?? []) loaded.addHost(name, host);
    for (const child of group.children ?? []) loaded.addChild(name, child);
  }
  loaded.reconcile();
  return loaded;
}

function line(text: string, depth: number): string {
  return depth === 0 ? text : `${"  |".repeat(depth)}--${text}`;
}

function graphGroup(group: Group, depth: number, out: string[]): void {
  out.push(line(`@${group.name}:`, depth));
  for (const child of group.children) graphGroup(child, depth + 1, out);
  if (group.name !== "all") for (const host of group.hosts) out.push(line(host, depth + 1));
}

/** The graph from `start` (a group name, default all); undefined when there is no such group. */
export function renderGraph(inventory: AnsibleInventory, start = "all"): string | undefined {
  const loaded = load(inventory);
  const group = loaded.groups.get(start);
  if (!group) return undefined;
  const out: string[] = [];
  graphGroup(group, 0, out);
  return out.join("\n");
}
