// What PVE checks for backup operations inside their handlers (the schema gives these
// endpoints no `check`, only prose): vzdump needs VM.Backup on the guest and
// Datastore.AllocateSpace on the target storage; reading an archive (restore) or deleting one
// needs the storage's Datastore.Allocate, or Datastore.AllocateSpace together with VM.Backup
// on the guest the archive belongs to.
import type { ArchiveDeleteIntent, CallIntent, RestoreIntent, StoredVolume } from "../../plan/intent.js";
import type { PrivilegeNeed } from "../../plan/types.js";

/** The vmid an archive belongs to, from PVE's naming scheme (`vzdump-qemu-101-…`). */
export function archiveOwner(volume: string): number | undefined {
  const m = /vzdump-(?:qemu|lxc|openvz)-(\d+)-/.exec(volume);
  return m ? Number(m[1]) : undefined;
}

/** Access to a backup archive: Datastore.Allocate on its storage, or AllocateSpace there plus VM.Backup on its guest. */
function archiveAccess(archive: StoredVolume, owner: number | undefined): PrivilegeNeed[] {
  const storagePath = `/storage/${archive.storage}`;
  const needs: PrivilegeNeed[] = [
    { path: storagePath, privilege: "Datastore.AllocateSpace", anyOf: ["Datastore.AllocateSpace", "Datastore.Allocate"] },
  ];
  if (owner !== undefined) {
    needs.push({ path: `/vms/${owner}`, privilege: "VM.Backup", orOn: [{ path: storagePath, privilege: "Datastore.Allocate" }] });
  }
  return needs;
}

function restoreNeeds(intent: RestoreIntent, vmPath: string): PrivilegeNeed[] {
  // Over an existing guest VM.Backup on it is enough; a new guest needs VM.Allocate.
  const allocate: PrivilegeNeed = intent.replaces
    ? { path: vmPath, privilege: "VM.Allocate", anyOf: ["VM.Allocate", "VM.Backup"] }
    : { path: vmPath, privilege: "VM.Allocate" };
  const needs = [allocate, ...archiveAccess(intent.archive, archiveOwner(intent.archive.volume))];
  if (intent.storage !== undefined) needs.push({ path: `/storage/${intent.storage}`, privilege: "Datastore.AllocateSpace" });
  return needs;
}

function deleteNeeds(intent: ArchiveDeleteIntent): PrivilegeNeed[] {
  return archiveAccess(intent.archive, intent.vmid);
}

/** Privileges of a backup, restore or archive-delete call; none for other calls. */
export function archiveCallNeeds(intent: CallIntent, vmPath: string): PrivilegeNeed[] {
  if (intent.op === "backup") {
    return [
      { path: vmPath, privilege: "VM.Backup" },
      { path: `/storage/${intent.storage}`, privilege: "Datastore.AllocateSpace" },
    ];
  }
  if (intent.op === "restore") return restoreNeeds(intent, vmPath);
  if (intent.op === "archive-delete") return deleteNeeds(intent);
  return [];
}
