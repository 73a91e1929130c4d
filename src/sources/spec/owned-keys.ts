// PVE config keys that the structured spec owns, and where to write them instead. Used both
// for the escape hatch (`extraConfig: { net0: ... }` is refused) and for unknown VM keys
// written with PVE's or proxmox_kvm's names (`net:`, `sshkeys:`).

const SAME_NAME_FIELDS = [
  "name",
  "vmid",
  "node",
  "pool",
  "cores",
  "sockets",
  "cpu",
  "memory",
  "balloon",
  "machine",
  "bios",
  "ostype",
  "scsihw",
  "boot",
  "agent",
  "onboot",
  "tags",
  "description",
];

const RENAMED: Record<string, string> = {
  efidisk0: "the VM's `efidisk: { storage: ... }`",
  tpmstate0: "the VM's `tpm: { storage: ... }`",
  bootdisk: "the VM's `boot: [scsi0, ...]` (bootdisk is deprecated in PVE)",
  cdrom: "`cdroms: { ide2: { iso: ... } }`",
  ciuser: "`cloudInit.user`",
  sshkeys: "`cloudInit.sshKeys` (a list, one key per entry)",
  nameserver: "`cloudInit.nameservers` (a list)",
  searchdomain: "`cloudInit.searchDomains` (a list)",
  ciupgrade: "`cloudInit.upgrade`",
  citype: "`cloudInit.type`",
  cipassword:
    "nothing: a password in a spec file ends up in git and logs; give cloud-init `sshKeys` instead, or set the password out of band",
};

const INDEXED: Array<[RegExp, string]> = [
  [/^(scsi|virtio|sata|ide)\d+$/, "`disks: { <slot>: { storage: ..., size: ... } }` (or `cdroms` / `cloudInit` for CD-ROM and cloud-init drives)"],
  [/^net\d+$/, "`nics: { <slot>: { bridge: vmbr0 } }`"],
  [/^ipconfig\d+$/, "`cloudInit.ipconfig: { <key>: { ip: ..., gw: ... } }`"],
  [/^unused\d+$/, "nothing: unused volumes are left to pvectl's plan (it reports them)"],
];

/** Keys no spec may set at all (bookkeeping of PVE or of a single API call). */
const NOT_SETTABLE = new Set([
  "lock",
  "digest",
  "delete",
  "revert",
  "skiplock",
  "vmgenid",
  "meta",
  "template",
  // Snapshot bookkeeping that appears in config files.
  "parent",
  "snaptime",
  "snapstate",
  "vmstate",
  "runningmachine",
  "runningcpu",
]);

/** Where a PVE config key belongs in the spec when the structured model owns it; undefined when it does not. */
export function ownedKeyHint(key: string): string | undefined {
  if (SAME_NAME_FIELDS.includes(key)) return `the VM's own \`${key}\` field`;
  if (Object.hasOwn(RENAMED, key)) return RENAMED[key];
  for (const [pattern, hint] of INDEXED) if (pattern.test(key)) return hint.replace("<slot>", key).replace("<key>", key);
  return undefined;
}

export function isNotSettable(key: string): boolean {
  return NOT_SETTABLE.has(key);
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
  clone: "nothing yet: cloning is not part of the spec format",
};
