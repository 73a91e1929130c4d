// PVE container config keys the structured `containers:` spec owns, and where to write them
// instead: for `extraConfig` (refused there) and for unknown container keys written with
// PVE's or the `proxmox` Ansible module's names (`net0:`, `disk:`, `pubkey:`).
import { type LxcOption, lxcOption, lxcSpecFieldOf } from "./options-table.js";

const OWN_FIELDS = ["vmid", "node", "pool", "ostemplate", "template"];

const INDEXED: Array<[RegExp, string]> = [
  [/^rootfs$/, "`rootfs: { storage: ..., size: ... }`"],
  [/^mp\d+$/, "`mounts: { <slot>: { storage: ..., size: ..., mountpoint: ... } }`"],
  [/^net\d+$/, "`nics: { <slot>: { bridge: vmbr0, ip: dhcp } }`"],
  [/^unused\d+$/, "nothing: unused volumes are left to pvectl's plan (it reports them)"],
];

/** The `proxmox` module's and PVE's create-only names, mapped to this format's fields. */
export const PROXMOX_MODULE_NAMES: Record<string, string> = {
  "ssh-public-keys": "`sshPublicKeys` (a list)",
  pubkey: "`sshPublicKeys` (a list)",
  disk: "`rootfs: { storage: ..., size: ... }`",
  mounts: "`mounts` (keyed by slot)",
  netif: "`nics` (keyed by slot: `nics: { net0: { bridge: vmbr0, ip: dhcp } }`)",
  cpus: "`cores`",
  macaddr: "`hwaddr` (on a NIC)",
  storage: "`rootfs.storage`",
};

/** Keys that belong to one API call, never to a desired state. */
const CALL_PARAMETERS = new Set([
  "delete",
  "revert",
  "digest",
  "force",
  "restore",
  "start",
  "unique",
  "ignore-unpack-errors",
  "bwlimit",
  "storage",
  "ha-managed",
]);

function rowHint(row: LxcOption, key: string): string | undefined {
  if (typeof row.spec === "object" && "refused" in row.spec) return row.spec.refused;
  const spec = lxcSpecFieldOf(row);
  return spec ? `the container's own \`${spec.field}\` field${spec.field !== key ? ` (PVE's ${key})` : ""}` : undefined;
}

/** Where a container config key belongs in the spec when the structured model owns it. */
export function ctOwnedKeyHint(key: string): string | undefined {
  if (OWN_FIELDS.includes(key)) return `the container's own \`${key}\` field`;
  if (key === "ssh-public-keys") return PROXMOX_MODULE_NAMES[key];
  const row = lxcOption(key);
  const hint = row && rowHint(row, key);
  if (hint !== undefined) return hint;
  for (const [pattern, text] of INDEXED) if (pattern.test(key)) return text.replace("<slot>", key);
  return undefined;
}

/** Keys no spec may set (PVE's bookkeeping, or a parameter of a single API call). */
export function ctNotSettable(key: string): boolean {
  return CALL_PARAMETERS.has(key) || lxcOption(key)?.spec === "pve-internal";
}
