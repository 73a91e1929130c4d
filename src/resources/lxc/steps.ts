// Whole-container steps: create and destroy (adopt, start, stop and restart: ../guest-steps.ts).
import type { FieldChange, ParamValue, SecretRef, StepDraft } from "../../plan/types.js";
import { createdTags } from "../placement-record.js";
import { lxcCalls } from "./calls.js";
import type { DesiredCt, LiveCt } from "./model.js";
import { describeMount, newMountString } from "./mount-values.js";
import { describeCtNic, printCtNic } from "./nic-diff.js";
import { isHostPath } from "./read.js";

/** How a plan shows a secret: where it comes from, never its value. */
export function describeSecret(ref: SecretRef): string {
  return "env" in ref ? `(from env ${ref.env})` : `(from file ${ref.file})`;
}

/** The POST /nodes/{node}/lxc call that creates `ct` (vmid filled in at apply time when allocated). */
export function createStep(ct: DesiredCt): StepDraft {
  const params: Record<string, ParamValue> = { hostname: ct.name };
  const changes: FieldChange[] = [{ field: "hostname", after: ct.name }];
  if (ct.vmid !== undefined) params.vmid = ct.vmid;
  if (ct.ostemplate !== undefined) {
    params.ostemplate = ct.ostemplate;
    changes.push({ field: "ostemplate", after: ct.ostemplate });
  }
  // PVE's API creates privileged containers by default; pvectl, as the issue asks, does not.
  const options = { unprivileged: "1", ...ct.options };
  for (const [key, value] of Object.entries(options).sort(([a], [b]) => a.localeCompare(b))) {
    params[key] = value;
    changes.push({ field: key, after: value });
  }
  // The ownership tag and the record of the node pvectl placed it on (placement-record.ts).
  params.tags = createdTags(ct.tags, ct.node);
  changes.push({ field: "tags", after: params.tags });
  for (const mount of ct.mounts) {
    params[mount.slot] = newMountString(mount);
    changes.push({ field: mount.slot, after: mount.bindPath !== undefined ? describeMount(mount) : `new ${describeMount(mount)}` });
  }
  for (const nic of ct.nics) {
    params[nic.slot] = printCtNic(nic);
    changes.push({ field: nic.slot, after: describeCtNic(nic) });
  }
  if (ct.sshPublicKeys !== undefined) {
    params["ssh-public-keys"] = ct.sshPublicKeys;
    changes.push({ field: "ssh-public-keys", after: ct.sshPublicKeys.trim().split("\n").join(" | ") });
  }
  const secrets = ct.password !== undefined ? { password: ct.password } : undefined;
  if (ct.password !== undefined) changes.push({ field: "password", after: describeSecret(ct.password) });
  if (ct.pool !== undefined && ct.pool !== "") {
    params.pool = ct.pool;
    changes.push({ field: "pool", after: ct.pool });
  }
  // Starting inside the create task saves a round trip and a second task per container.
  if (ct.power === "running") params.start = 1;
  const where = ct.vmid !== undefined ? `vmid ${ct.vmid}` : "vmid allocated at apply";
  return {
    action: "create",
    severity: "configuration",
    summary: `create container ${ct.name} on ${ct.node} (${where}) from ${ct.ostemplate ?? "?"}${ct.power === "running" ? " and start it" : ""}`,
    changes,
    calls: [lxcCalls.create(ct.node, params, secrets)],
  };
}

/**
 * The vmid a container volume belongs to by its name (`vm-200-disk-0`, `subvol-200-disk-1`,
 * `basevol-200-disk-0`, `local:200/vm-200-disk-0.raw`: 200).
 */
export function ctVolumeOwner(volume: string): number | undefined {
  const name = (volume.split(":")[1] ?? "").split("/").pop() ?? "";
  const m = /^(?:vm|subvol|basevol|base)-(\d+)-/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/**
 * The volumes a destroy frees when the container owns them (resources/destroy-plan.ts decides
 * by owner): rootfs, every volume mount point and every `unusedN` volume; bind mounts (host
 * paths) are never PVE's to free.
 */
export function ctDestroyedVolumes(live: LiveCt): string[] {
  return [...Object.values(live.mounts).map((m) => m.volume), ...Object.values(live.unused)].filter((volume) => !isHostPath(volume));
}
