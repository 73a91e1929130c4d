// Ansible's "constructed" options over pvectl's built inventory, with Ansible's semantics
// (ansible/plugins/inventory/__init__.py, Constructable): `filters` drop hosts, `compose`
// sets variables from expressions, `groups` add hosts whose condition is true, `keyed_groups`
// add hosts to groups named after an expression's value. An entry that fails for a host is
// skipped for that host, unless `strict`, when it stops the inventory.
import { InventoryError } from "./errors.js";
import {
  ExpressionError,
  HostEvalError,
  parseBareExpression,
  parseTemplate,
  pyStr,
  renderTemplate,
  type Template,
  truthy,
} from "./jinja/index.js";
import type { AnsibleInventory } from "./model.js";

export interface KeyedGroupSpec {
  key: string;
  prefix?: string;
  separator?: string;
  default_value?: string;
  trailing_separator?: boolean;
  parent_group?: string;
}

export interface ConstructedOptions {
  compose: Record<string, unknown>;
  groups: Record<string, unknown>;
  keyed_groups: KeyedGroupSpec[];
  filters: unknown[];
  strict: boolean;
  leading_separator: boolean;
}

interface Compiled {
  compose: Array<[string, Template]>;
  groups: Array<[string, Template]>;
  keyed: Array<{ spec: KeyedGroupSpec; key: Template; parent?: Template }>;
  filters: Template[];
}

/** Parses every expression up front: one that cannot be evaluated at all is a configuration error, never skipped. */
export function compileConstructed(options: ConstructedOptions): Compiled {
  for (const spec of options.keyed_groups) {
    if (spec.default_value !== undefined && spec.trailing_separator !== undefined) {
      throw new InventoryError(
        `keyed_groups entry with key '${spec.key}' sets both default_value and trailing_separator`,
        "the two are mutually exclusive (as in Ansible): keep one",
      );
    }
  }
  return {
    compose: Object.entries(options.compose).map(([name, expr]) => [name, located(`compose.${name}`, () => parseBareExpression(expr))]),
    groups: Object.entries(options.groups).map(([name, expr]) => [name, located(`groups.${name}`, () => parseBareExpression(expr))]),
    keyed: options.keyed_groups.map((spec, i) => ({
      spec,
      key: located(`keyed_groups[${i}].key`, () => parseBareExpression(spec.key)),
      ...(spec.parent_group ? { parent: located(`keyed_groups[${i}].parent_group`, () => parseTemplate(spec.parent_group!)) } : {}),
    })),
    filters: options.filters.map((f, i) => located(`filters[${i}]`, () => parseBareExpression(f))),
  };
}

/** Names the option an unparsable expression is written in. */
function located<T>(where: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ExpressionError) throw new ExpressionError(err.expression, err.position, err.problem, where);
    throw err;
  }
}

/** What was skipped, for the caller to report where it reports warnings. */
export type Skipped = string[];

function attempt<T>(strict: boolean, what: string, skipped: Skipped, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof HostEvalError)) throw err;
    if (strict)
      throw new InventoryError(`${what}: ${err.message}`, "fix the expression, or set strict: false to skip entries that fail for a host");
    skipped.push(`${what}: ${err.message}`);
    return undefined;
  }
}

/** Ansible's group names for one keyed-group value (a string, a list of them, or a dict). */
function keyedNames(value: unknown, spec: KeyedGroupSpec, leadingSeparator: boolean): string[] {
  const prefix = spec.prefix ?? "";
  let sep = spec.separator ?? "_";
  const bare: string[] = [];
  const orDefault = (name: unknown) => (name === "" && spec.default_value !== undefined ? spec.default_value : pyStr(name));
  if (typeof value === "string") bare.push(orDefault(value));
  else if (Array.isArray(value)) bare.push(...value.map(orDefault));
  else if (typeof value === "object" && value !== null) {
    for (const [name, v] of Object.entries(value)) {
      if (v === "" && spec.default_value !== undefined) bare.push(`${name}${sep}${spec.default_value}`);
      else if (v === "" && spec.trailing_separator === false) bare.push(name);
      else bare.push(`${name}${sep}${pyStr(v)}`);
    }
  } else {
    // Ansible fails the whole inventory here, strict or not (a number key needs `| string`).
    throw new InventoryError(
      `keyed_groups key '${spec.key}' gave ${pyStr(value)}, not a string, a list or a dict`,
      `convert it, e.g. key: ${spec.key} | string`,
    );
  }
  if (prefix === "" && !leadingSeparator) sep = "";
  return bare.map((name) => `${prefix}${sep}${name}`);
}

export interface ConstructedResult {
  skipped: Skipped;
}

/**
 * Ansible's to_safe_group_name as its constructed features force it: a leading digit and any
 * character that is not a letter, digit or `_` become `_`.
 */
export function constructedGroupName(name: string): string {
  return name.replace(/^\p{Nd}|[^\p{L}\p{N}_]/gu, "_");
}

/** Applies the options to a built inventory in place. */
export function applyConstructed(
  inventory: AnsibleInventory,
  options: ConstructedOptions,
  /** The group of hypervisor hosts: like the plugin, constructed options apply to guests only. */
  nodesGroup?: string,
): ConstructedResult {
  const compiled = compileConstructed(options);
  const skipped: Skipped = [];
  const hostvars = inventory._meta.hostvars;
  const groups = groupMembers(inventory);
  const children = new Map<string, Set<string>>();
  const nodes = nodesGroup ? (groups.get(nodesGroup) ?? new Set<string>()) : new Set<string>();
  for (const host of Object.keys(hostvars)) {
    if (nodes.has(host)) continue;
    const facts = hostvars[host]!;
    if (!passesFilters(host, facts, compiled, options.strict, skipped)) {
      delete hostvars[host];
      for (const members of groups.values()) members.delete(host);
      continue;
    }
    // The plugin runs these before it puts the host in its built-in groups: group_names holds only what they add.
    const added: string[] = [];
    const memberOf = () => [...added].sort();
    const magic = { inventory_hostname: host, inventory_hostname_short: host.split(".")[0], group_names: [] as string[] };
    const base = { ...facts, ...magic };
    for (const [name, template] of compiled.compose) {
      const value = attempt(options.strict, `Could not set ${name} for host ${host}`, skipped, () =>
        renderTemplate(template, { vars: base }),
      );
      if (value !== undefined) facts[name] = value;
    }
    const add = (raw: string) => {
      const group = constructedGroupName(raw);
      if (!added.includes(group)) added.push(group);
      const members = groups.get(group) ?? new Set<string>();
      members.add(host);
      groups.set(group, members);
    };
    for (const [group, template] of compiled.groups) {
      const vars = { ...facts, ...magic, group_names: memberOf() };
      const yes = attempt(options.strict, `Could not add host ${host} to group ${group}`, skipped, () =>
        truthy(renderTemplate(template, { vars })),
      );
      if (yes) add(group);
    }
    for (const { spec, key, parent } of compiled.keyed) {
      const vars = { ...facts, ...magic, group_names: memberOf() };
      attempt(options.strict, `Could not generate group for host ${host} from ${spec.key} entry`, skipped, () => {
        const value = renderTemplate(key, { vars });
        if (!truthy(value) && !(value === "" && spec.default_value !== undefined)) {
          // As in Ansible: an empty list or dict is valid (no groups), other empty keys fail when strict.
          if (options.strict && !(Array.isArray(value) || (typeof value === "object" && value !== null))) {
            throw new HostEvalError(`No key or key resulted empty for ${spec.key} in host ${host}, invalid entry`);
          }
          return;
        }
        for (let group of keyedNames(value, spec, options.leading_separator)) {
          add(group);
          group = constructedGroupName(group);
          if (parent) {
            const parentName = constructedGroupName(pyStr(renderTemplate(parent, { vars })));
            const kids = children.get(parentName) ?? new Set<string>();
            kids.add(group);
            children.set(parentName, kids);
          }
        }
      });
    }
  }
  writeGroups(inventory, groups, children);
  return { skipped };
}

function passesFilters(host: string, facts: Record<string, unknown>, compiled: Compiled, strict: boolean, skipped: Skipped): boolean {
  for (const filter of compiled.filters) {
    const verdict = attempt(strict, `Could not evaluate host filter ${filter.source.slice(2, -2)} for host ${host}`, skipped, () =>
      truthy(renderTemplate(filter, { vars: facts })),
    );
    // As in the plugin: a filter that fails (not strict) does not exclude the host.
    if (verdict === false) return false;
  }
  return true;
}

function groupMembers(inventory: AnsibleInventory): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const [name, group] of Object.entries(inventory)) {
    if (name === "_meta" || name === "all" || !("hosts" in group) || !group.hosts) continue;
    groups.set(name, new Set(group.hosts as string[]));
  }
  return groups;
}

/** Rewrites the groups: sorted, members sorted, empty groups dropped, `all` listing every top-level group. */
function writeGroups(inventory: AnsibleInventory, groups: Map<string, Set<string>>, children: Map<string, Set<string>>): void {
  for (const name of Object.keys(inventory)) if (name !== "_meta") delete inventory[name];
  const names = [...new Set([...groups.keys(), ...children.keys()])]
    .filter((n) => (groups.get(n)?.size ?? 0) > 0 || children.has(n))
    .sort();
  const nested = new Set([...children.values()].flatMap((kids) => [...kids]));
  for (const name of names) {
    const entry: { hosts?: string[]; children?: string[] } = {};
    const hosts = [...(groups.get(name) ?? [])].sort();
    if (hosts.length > 0) entry.hosts = hosts;
    if (children.has(name)) entry.children = [...children.get(name)!].sort();
    inventory[name] = entry;
  }
  inventory.all = { children: ["ungrouped", ...names.filter((g) => g !== "all" && g !== "ungrouped" && !nested.has(g))] };
}
