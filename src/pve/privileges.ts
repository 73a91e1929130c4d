// PVE 9's privileges and built-in roles (pve-access-control AccessControl.pm: $privgroups and
// create_roles). Built-in roles are computed, never stored, and cannot be changed. One list
// for the simulator (what it accepts) and the spec validator (what a spec may name), so the
// two never disagree.

export const PVE_PRIVILEGES: readonly string[] = [
  "Datastore.Allocate",
  "Datastore.AllocateSpace",
  "Datastore.AllocateTemplate",
  "Datastore.Audit",
  "Group.Allocate",
  "Mapping.Audit",
  "Mapping.Modify",
  "Mapping.Use",
  "Permissions.Modify",
  "Pool.Allocate",
  "Pool.Audit",
  "Realm.Allocate",
  "Realm.AllocateUser",
  "SDN.Allocate",
  "SDN.Audit",
  "SDN.Use",
  "Sys.AccessNetwork",
  "Sys.Audit",
  "Sys.Console",
  "Sys.Incoming",
  "Sys.Modify",
  "Sys.PowerMgmt",
  "Sys.Syslog",
  "User.Modify",
  "VM.Allocate",
  "VM.Audit",
  "VM.Backup",
  "VM.Clone",
  "VM.Config.CDROM",
  "VM.Config.CPU",
  "VM.Config.Cloudinit",
  "VM.Config.Disk",
  "VM.Config.HWType",
  "VM.Config.Memory",
  "VM.Config.Network",
  "VM.Config.Options",
  "VM.Console",
  "VM.GuestAgent.Audit",
  "VM.GuestAgent.FileRead",
  "VM.GuestAgent.FileSystemMgmt",
  "VM.GuestAgent.FileWrite",
  "VM.GuestAgent.Unrestricted",
  "VM.Migrate",
  "VM.PowerMgmt",
  "VM.Replicate",
  "VM.Snapshot",
  "VM.Snapshot.Rollback",
];

const NOT_IN_PVEADMIN = new Set([
  "Sys.PowerMgmt",
  "Sys.Modify",
  "Sys.Incoming",
  "Sys.AccessNetwork",
  "Realm.Allocate",
  "Permissions.Modify",
  "Mapping.Modify",
]);

export const BUILTIN_ROLES: Readonly<Record<string, readonly string[]>> = {
  Administrator: PVE_PRIVILEGES,
  NoAccess: [],
  PVEAdmin: PVE_PRIVILEGES.filter((p) => !NOT_IN_PVEADMIN.has(p)),
  PVEAuditor: ["Datastore.Audit", "Mapping.Audit", "Pool.Audit", "SDN.Audit", "Sys.Audit", "VM.Audit", "VM.GuestAgent.Audit"],
  PVEDatastoreAdmin: ["Datastore.Allocate", "Datastore.AllocateSpace", "Datastore.AllocateTemplate", "Datastore.Audit"],
  PVEDatastoreUser: ["Datastore.AllocateSpace", "Datastore.Audit"],
  PVEMappingAdmin: ["Mapping.Audit", "Mapping.Modify", "Mapping.Use"],
  PVEMappingUser: ["Mapping.Audit", "Mapping.Use"],
  PVEPoolAdmin: ["Pool.Allocate", "Pool.Audit"],
  PVEPoolUser: ["Pool.Audit"],
  PVESDNAdmin: ["SDN.Allocate", "SDN.Audit", "SDN.Use"],
  PVESDNUser: ["SDN.Audit", "SDN.Use"],
  PVESysAdmin: ["Sys.Audit", "Sys.Console", "Sys.Syslog"],
  PVETemplateUser: ["VM.Audit", "VM.Clone"],
  PVEUserAdmin: ["Group.Allocate", "Realm.AllocateUser", "User.Modify"],
  PVEVMAdmin: PVE_PRIVILEGES.filter((p) => p.startsWith("VM.")),
  PVEVMUser: [
    "VM.Audit",
    "VM.Backup",
    "VM.Config.CDROM",
    "VM.Config.Cloudinit",
    "VM.Console",
    "VM.GuestAgent.Audit",
    "VM.GuestAgent.FileRead",
    "VM.GuestAgent.FileSystemMgmt",
    "VM.GuestAgent.FileWrite",
    "VM.PowerMgmt",
  ],
};

export function isBuiltinRole(roleid: string): boolean {
  return Object.hasOwn(BUILTIN_ROLES, roleid);
}

export function isPrivilege(name: string): boolean {
  return PVE_PRIVILEGES.includes(name);
}

/**
 * Privileges earlier PVE releases had and PVE 9 refuses (a role naming one is rejected as a
 * whole), with what replaced them: a spec written for PVE 8 gets told what to write instead.
 */
export const REMOVED_PRIVILEGES: Readonly<Record<string, string>> = {
  "VM.Monitor":
    "removed in PVE 9: the guest agent calls need VM.GuestAgent.Audit, .FileRead, .FileWrite, .FileSystemMgmt or .Unrestricted, the QEMU monitor Sys.Audit",
  "Permissions.Read": "never a PVE privilege: reading permissions needs Sys.Audit",
};

/** ACL paths PVE accepts (AccessControl.pm check_path), by their first component. */
const ACL_PATH_RE =
  /^\/(?:$|access(?:\/(?:groups|realm)(?:\/[^/]+)?)?$|vms(?:\/\d+)?$|storage(?:\/[^/]+)?$|nodes(?:\/[^/]+)?$|pool(?:\/[^/]+){0,3}$|sdn(?:\/.*)?$|mapping(?:\/.*)?$)/;

export function isAclPath(path: string): boolean {
  return ACL_PATH_RE.test(path);
}

/** Role ids PVE takes (`pve-roleid`); the `PVE` prefix is kept for built-in roles. */
export const ROLE_ID_RE = /^[A-Za-z0-9.\-_]+$/;
