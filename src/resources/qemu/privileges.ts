// What qemu-server checks inside its create and config handlers, beyond the endpoint's own
// schema check (`$check_vm_modify_config_perm`, `check_storage_access`, the bridge's SDN.Use):
// per key written, by what the plan said the key is.

import type { CallIntent, ConfigWrite, DriveMedia } from "../../plan/intent.js";
import type { PrivilegeNeed } from "../../plan/types.js";
import { type DriveCheck, drivePrivileges, isNetKey, isUnusedKey, isVmDriveKey } from "../../pve/index.js";
import { cloneNeeds } from "../clone-needs.js";
import { guestCreateNeeds } from "../create-privileges.js";
import { optionPrivilege, optionPrivilegeAnyOf } from "./options-table.js";

/** A plain config key: the privilege its options-table row names (VM.Config.Options for keys without a row). */
function optionNeed(key: string, vmPath: string): PrivilegeNeed {
  const privilege = optionPrivilege(key) ?? "VM.Config.Options";
  const anyOf = optionPrivilegeAnyOf(key);
  return { path: vmPath, privilege, ...(anyOf ? { anyOf: [...anyOf] } : {}) };
}

/** The VM.Config.* privileges a drive of `media` needs in this handler (pve/drive-privileges.ts, shared with the simulator). */
function driveNeeds(check: DriveCheck, media: DriveMedia, vmPath: string): PrivilegeNeed[] {
  return drivePrivileges(check, media).map((privilege) => ({ path: vmPath, privilege }));
}

/** Privileges for writing one config key on guest path `vmPath`, in a create or an update. */
function writeNeeds(check: DriveCheck, write: ConfigWrite, vmPath: string): PrivilegeNeed[] {
  if (write.as === "drive") {
    const needs = driveNeeds(check, write.media, vmPath);
    if (write.newOn) needs.push({ path: `/storage/${write.newOn}`, privilege: "Datastore.AllocateSpace" });
    // An ISO or an image to import is read from its storage: PVE's check_volume_access wants
    // read access there (ISOs and images may be sensitive).
    for (const read of [write.iso, write.importFrom]) {
      if (read)
        needs.push({
          path: `/storage/${read.storage}`,
          privilege: "Datastore.AllocateSpace",
          anyOf: ["Datastore.AllocateSpace", "Datastore.Audit"],
        });
    }
    return needs;
  }
  if (write.as === "nic") {
    const needs: PrivilegeNeed[] = [{ path: vmPath, privilege: "VM.Config.Network" }];
    // PVE accepts SDN.Use on the bridge or on the bridge's VLAN; the bridge covers both.
    if (write.bridge) needs.push({ path: `/sdn/zones/localnetwork/${write.bridge}`, privilege: "SDN.Use" });
    return needs;
  }
  // startup changes the host's boot order of guests: qemu-server wants Sys.Modify on / too.
  if (write.key === "startup") return [optionNeed(write.key, vmPath), { path: "/", privilege: "Sys.Modify" }];
  return [optionNeed(write.key, vmPath)];
}

/** Deleting a key needs what writing it would: a drive by what it holds (as planned; else a disk), a NIC as a NIC. */
function deleteNeeds(key: string, media: DriveMedia | undefined, vmPath: string): PrivilegeNeed[] {
  if (isVmDriveKey(key)) return driveNeeds("update", media ?? "disk", vmPath);
  if (isUnusedKey(key)) return [{ path: vmPath, privilege: "VM.Config.Disk" }];
  if (isNetKey(key)) return [{ path: vmPath, privilege: "VM.Config.Network" }];
  return [optionNeed(key, vmPath)];
}

/** Privileges a qemu call needs inside its handler, for guest path `vmPath` (`/vms/100`). */
export function qemuCallNeeds(intent: CallIntent, vmPath: string): PrivilegeNeed[] {
  const needs: PrivilegeNeed[] = [];
  if (intent.op === "create") {
    needs.push(...guestCreateNeeds(intent, vmPath));
  }
  if (intent.op === "create") for (const write of intent.writes) needs.push(...writeNeeds("create", write, vmPath));
  if (intent.op === "configure") {
    for (const write of intent.writes) needs.push(...writeNeeds("update", write, vmPath));
    for (const key of intent.deletes) needs.push(...deleteNeeds(key, intent.deletedMedia?.[key], vmPath));
  }
  // A revert is checked like a delete of the key (pve-container does so; the simulator too for VMs).
  if (intent.op === "configure") for (const key of intent.reverts ?? []) needs.push(...deleteNeeds(key, undefined, vmPath));
  if (intent.op === "move-volume") needs.push({ path: `/storage/${intent.storage}`, privilege: "Datastore.AllocateSpace" });
  if (intent.op === "clone") needs.push(...cloneNeeds(intent));
  return needs;
}
