// Host names are unique even when guest names are not (PVE does not enforce unique names).
// Rule: a guest whose name no other listed guest shares is known by its name; every guest of
// a shared name is `<name>-<vmid>` (none of them keeps the bare name, so the result does not
// depend on listing order); a guest without a name is `vm-<vmid>` (QEMU) or `ct-<vmid>` (LXC).
import type { InventoryGuest } from "./model.js";

export function assignHostnames(guests: readonly InventoryGuest[]): Map<InventoryGuest, string> {
  const counts = new Map<string, number>();
  for (const g of guests) if (g.name) counts.set(g.name, (counts.get(g.name) ?? 0) + 1);

  const names = new Map<InventoryGuest, string>();
  const taken = new Set<string>();
  const ordered = [...guests].sort((a, b) => a.vmid - b.vmid);
  // Unique names first, so a derived `<name>-<vmid>` can never steal a real guest's name.
  for (const g of ordered) {
    if (g.name && counts.get(g.name) === 1) {
      names.set(g, g.name);
      taken.add(g.name);
    }
  }
  for (const g of ordered) {
    if (names.has(g)) continue;
    const base = g.name ? `${g.name}-${g.vmid}` : `${g.type === "lxc" ? "ct" : "vm"}-${g.vmid}`;
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    names.set(g, candidate);
    taken.add(candidate);
  }
  return names;
}
