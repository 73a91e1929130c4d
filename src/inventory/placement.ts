// Without placement facts (`--no-placement-facts`), nothing in a host's variables or groups says
// where the hypervisor put the guest: not its node, not the storage a volume sits on, not the
// bridge a NIC is plugged into. All three change when HA or an operator moves the guest, so a
// role keyed on them configures the same guest differently after a move. What describes the
// guest itself stays: a disk's size and options, a mount point's path, a NIC's MAC and VLAN.
// (config-keys, not config: the inventory does not load the guest schema.)
import { isDiskKey, isNetKey } from "../pve/config-keys.js";

/** The keys of a drive or mount string that name where its data lives. */
const WHERE_KEYS = new Set(["file", "volume", "disk_image", "import-from"]);

/** A drive/mount string without its volume: `local-lvm:vm-1-disk-0,size=4G` -> `size=4G`. */
function volumeFree(text: string): string | undefined {
  const kept = text.split(",").filter((part) => {
    const eq = part.indexOf("=");
    // The leading volume (or host path, or `none` of an empty drive) has no key; neither has
    // any other part PVE would accept, so a part without `=` is never kept.
    if (eq < 0) return false;
    return !WHERE_KEYS.has(part.slice(0, eq));
  });
  return kept.length > 0 ? kept.join(",") : undefined;
}

/** A NIC string without its bridge: `virtio=BC:..,bridge=vmbr0,tag=10` -> `virtio=BC:..,tag=10`. */
function bridgeFree(text: string): string {
  return text
    .split(",")
    .filter((part) => !part.startsWith("bridge="))
    .join(",");
}

/** One variable's value without what places it, or undefined when nothing else is left. */
function placementFreeValue(key: string, value: unknown): unknown {
  if (isDiskKey(key)) {
    if (typeof value === "string") return volumeFree(value);
    if (value && typeof value === "object") {
      const rest = Object.fromEntries(Object.entries(value).filter(([k]) => !WHERE_KEYS.has(k)));
      return Object.keys(rest).length > 0 ? rest : undefined;
    }
  }
  if (isNetKey(key)) {
    if (typeof value === "string") return bridgeFree(value);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "bridge"));
  }
  return value;
}

/** The host variables without the node, volumes' storages and NICs' bridges (in place). */
export function dropPlacement(vars: Record<string, unknown>, prefix: string): void {
  delete vars[`${prefix}node`];
  for (const [name, value] of Object.entries(vars)) {
    if (!name.startsWith(prefix)) continue;
    const kept = placementFreeValue(name.slice(prefix.length), value);
    if (kept === undefined) delete vars[name];
    else vars[name] = kept;
  }
}
