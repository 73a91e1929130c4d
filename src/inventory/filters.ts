// Which guests become hosts: templates only when asked, then the configured filters.
import type { InventoryConfig } from "./config.js";
import type { InventoryGuest } from "./model.js";

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

/** Whether a guest becomes a host under `config` (also used to skip per-guest reads of the others). */
export function guestFilter(config: InventoryConfig): (guest: InventoryGuest) => boolean {
  const f = config.filters;
  const name = f.name ? globToRegExp(f.name) : undefined;
  return (g) => {
    if (g.template && !config.includeTemplates) return false;
    if (f.types && !f.types.includes(g.type)) return false;
    if (f.status && !f.status.includes(g.status)) return false;
    if (f.nodes && !f.nodes.includes(g.node)) return false;
    if (f.pools && (!g.pool || !f.pools.includes(g.pool))) return false;
    if (f.tags && !g.tags.some((t) => f.tags?.includes(t))) return false;
    if (name && !name.test(g.name)) return false;
    return true;
  };
}

export function selectGuests(guests: readonly InventoryGuest[], config: InventoryConfig): InventoryGuest[] {
  return guests.filter(guestFilter(config));
}
