// PVE config keys that the structured spec owns, and where to write them instead. Used both
// for the escape hatch (`extraConfig: { net0: ... }` is refused) and for unknown VM keys
// written with PVE's or proxmox_kvm's names (`net:`, `sshkeys:`).

import { type QemuOption, qemuOption, specFieldOf } from "./options-table.js";

/** The VM's own fields that are not config keys of the options table. */
const OWN_FIELDS = ["vmid", "node", "pool", "template"];

/** Drive keys with a section of their own. */
const RENAMED: Record<string, string> = {
  efidisk0: "the VM's `efidisk: { storage: ... }`",
  tpmstate0: "the VM's `tpm: { storage: ... }`",
  cdrom: "`cdroms: { ide2: { iso: ... } }`",
};

const INDEXED: Array<[RegExp, string]> = [
  [
    /^(scsi|virtio|sata|ide)\d+$/,
    "`disks: { <slot>: { storage: ..., size: ... } }` (or `cdroms` / `cloudInit` for CD-ROM and cloud-init drives)",
  ],
  [/^net\d+$/, "`nics: { <slot>: { bridge: vmbr0 } }`"],
  [/^unused\d+$/, "nothing: unused volumes are left to pvectl's plan (it reports them)"],
];

/** Parameters of a single API call, never part of a desired state. */
const CALL_PARAMETERS = new Set(["delete", "revert", "skiplock"]);

/** Where the spec writes a config key of the options table instead; undefined: under extraConfig. */
function optionHint(row: QemuOption, key: string): string | undefined {
  if (typeof row.spec === "object" && "refused" in row.spec) return row.spec.refused;
  const spec = specFieldOf(row);
  if (!spec) return undefined;
  if (spec.hint !== undefined) return spec.hint.replace("<key>", key);
  if (spec.section === undefined) return `the VM's own \`${spec.field}\` field`;
  return `\`${spec.section}.${spec.field}\`${spec.note !== undefined ? ` (${spec.note})` : ""}`;
}

/** Where a PVE config key belongs in the spec when the structured model owns it; undefined when it does not. */
export function ownedKeyHint(key: string): string | undefined {
  if (OWN_FIELDS.includes(key)) return `the VM's own \`${key}\` field`;
  const row = qemuOption(key);
  const hint = row && optionHint(row, key);
  if (hint !== undefined) return hint;
  if (Object.hasOwn(RENAMED, key)) return RENAMED[key];
  for (const [pattern, hint] of INDEXED) if (pattern.test(key)) return hint.replace("<slot>", key);
  return undefined;
}

/** Keys no spec may set at all (bookkeeping of PVE or of a single API call). */
export function isNotSettable(key: string): boolean {
  return CALL_PARAMETERS.has(key) || qemuOption(key)?.spec === "pve-internal";
}

/** Names that proxmox_kvm users will reach for, mapped to this format's fields. */
export const PROXMOX_KVM_NAMES: Record<string, string> = {
  net: "`nics` (keyed by slot: `nics: { net0: { bridge: vmbr0 } }`)",
  scsi: "`disks` (keyed by slot: `disks: { scsi0: { storage: local-lvm, size: 32G } }`)",
  sata: "`disks` or `cdroms` (keyed by slot, e.g. `cdroms: { sata0: { iso: ... } }`)",
  virtio: "`disks` (keyed by slot: `disks: { virtio0: { storage: local-lvm, size: 32G } }`)",
  ide: "`disks` or `cdroms` (keyed by slot, e.g. `cdroms: { ide2: { iso: ... } }`)",
  ipconfig: "`cloudInit.ipconfig`",
  nameservers: "`cloudInit.nameservers`",
  searchdomains: "`cloudInit.searchDomains`",
  numa_enabled: "`extraConfig: { numa: 1 }`",
  api_host: "`connections: { <name>: { host: ... } }` at the top of the file, named by the VM's `connection`",
  api_user: "`connections: { <name>: { user: ... } }`",
  api_token_id: "`connections: { <name>: { tokenId: ... } }`",
  api_token_secret: "`connections: { <name>: { tokenSecretEnv: VARIABLE } }` (secrets are never written inline)",
  api_password: "`connections: { <name>: { passwordEnv: VARIABLE } }` (secrets are never written inline)",
  validate_certs: "`connections: { <name>: { validateCerts: ... } }`",
  started: "`power: running`",
};
