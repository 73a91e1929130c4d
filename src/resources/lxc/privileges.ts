// What pve-container checks inside its create and config handlers beyond the endpoint's own
// schema check (LXC.pm check_ct_modify_config_perm, the template's storage access, the
// bridge's SDN.Use): per key written, by what the plan said the key is. Bind mounts, device
// mount points, hookscripts and features other than nesting are root@pam only: no privilege
// grants them, so plans flag them instead (mount-diff.ts bindMountWarning).

import type { CallIntent, ConfigWrite } from "../../plan/intent.js";
import type { PrivilegeNeed } from "../../plan/types.js";
import { isUnusedKey } from "../../pve/index.js";
import { cloneNeeds } from "../clone-needs.js";
import { guestCreateNeeds } from "../create-privileges.js";
import { CT_NIC_SLOT, MOUNT_SLOT } from "./model.js";
import { lxcOption } from "./options-table.js";

const DISK = "VM.Config.Disk";
const NETWORK = "VM.Config.Network";

function optionNeed(key: string, vmPath: string): PrivilegeNeed {
  return { path: vmPath, privilege: lxcOption(key)?.privilege ?? "VM.Config.Options" };
}

function writeNeeds(write: ConfigWrite, vmPath: string): PrivilegeNeed[] {
  if (write.as === "drive") {
    const needs: PrivilegeNeed[] = [{ path: vmPath, privilege: DISK }];
    if (write.newOn) needs.push({ path: `/storage/${write.newOn}`, privilege: "Datastore.AllocateSpace" });
    return needs;
  }
  if (write.as === "nic") {
    const needs: PrivilegeNeed[] = [{ path: vmPath, privilege: NETWORK }];
    if (write.bridge) needs.push({ path: `/sdn/zones/localnetwork/${write.bridge}`, privilege: "SDN.Use" });
    return needs;
  }
  return [optionNeed(write.key, vmPath)];
}

function deleteNeeds(key: string, vmPath: string): PrivilegeNeed[] {
  if (MOUNT_SLOT.test(key) || isUnusedKey(key)) return [{ path: vmPath, privilege: DISK }];
  if (CT_NIC_SLOT.test(key)) return [{ path: vmPath, privilege: NETWORK }];
  return [optionNeed(key, vmPath)];
}

/** Privileges an lxc call needs inside its handler, for guest path `vmPath` (`/vms/200`). */
export function lxcCallNeeds(intent: CallIntent, vmPath: string): PrivilegeNeed[] {
  const needs: PrivilegeNeed[] = [];
  if (intent.op === "create") {
    needs.push(...guestCreateNeeds(intent, vmPath));
    // Reading a template needs read access to its storage (templates may be sensitive).
    if (intent.template) {
      needs.push({
        path: `/storage/${intent.template.storage}`,
        privilege: "Datastore.AllocateSpace",
        anyOf: ["Datastore.AllocateSpace", "Datastore.Audit"],
      });
    }
  }
  if (intent.op === "create" || intent.op === "configure") for (const write of intent.writes) needs.push(...writeNeeds(write, vmPath));
  // pve-container checks a reverted key as it checks a deleted one.
  if (intent.op === "configure") for (const key of [...intent.deletes, ...(intent.reverts ?? [])]) needs.push(...deleteNeeds(key, vmPath));
  if (intent.op === "move-volume") needs.push({ path: `/storage/${intent.storage}`, privilege: "Datastore.AllocateSpace" });
  if (intent.op === "clone") needs.push(...cloneNeeds(intent));
  return needs;
}

/** The flags of a `features` value that are on (`keyctl=1,nesting=1` -> keyctl=1, nesting=1). */
function featureFlags(value: string | undefined): Map<string, string> {
  const flags = new Map<string, string>();
  for (const part of (value ?? "").split(",")) {
    const [name, flag = ""] = part.split("=");
    if (name && flag !== "0" && flag !== "") flags.set(name, flag);
  }
  return flags;
}

/**
 * Writes only root@pam may make (pve-container refuses every other user whatever its
 * privileges): hookscripts, device passthrough (`devN`), a change of any feature flag but
 * `nesting`, and any feature change of a privileged container. The plan names each so that
 * an apply as another user is not a surprise. `before` holds the live values of the keys.
 */
export function rootOnlyWarnings(
  params: Record<string, string | number>,
  before: { features?: string | undefined; unprivileged?: string | undefined } = {},
): string[] {
  const warnings: string[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (lxcOption(key)?.rootOnly) warnings.push(`${key} can be written only by root@pam (PVE refuses any other user or token)`);
    if (key !== "features") continue;
    if (before.unprivileged !== "1") {
      warnings.push("features of a privileged container can be changed only by root@pam (PVE refuses any other user or token)");
      continue;
    }
    const old = featureFlags(before.features);
    const now = featureFlags(String(raw));
    const changed = [...new Set([...old.keys(), ...now.keys()])].filter((f) => f !== "nesting" && old.get(f) !== now.get(f)).sort();
    if (changed.length > 0) {
      warnings.push(
        `changing features ${changed.join(", ")} is allowed only to root@pam (PVE refuses any other user or token; nesting alone needs VM.Allocate)`,
      );
    }
  }
  return warnings;
}
