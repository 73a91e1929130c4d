// Whole-container steps: create, adopt, start, stop, restart, destroy.
import type { FieldChange, ParamValue, SecretRef, StepDraft } from "../../plan/types.js";
import { printTags } from "../formats.js";
import type { PowerOptions } from "../kind.js";
import { OWNERSHIP_TAG } from "../ownership.js";
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
  params.tags = printTags([...(ct.tags ?? []), OWNERSHIP_TAG]);
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

/** Adoption: the ownership tag is added to a container pvectl did not create, as a step of its own. */
export function adoptStep(live: LiveCt): StepDraft {
  const before = printTags(live.tags);
  const after = printTags([...live.tags, OWNERSHIP_TAG]);
  return {
    action: "adopt",
    severity: "configuration",
    summary: `adopt: add tag ${OWNERSHIP_TAG} (vmid ${live.vmid} was not created by pvectl; its other tags stay)`,
    changes: [{ field: "tags", ...(before !== "" ? { before } : {}), after }],
    calls: [lxcCalls.config(live.node, live.vmid, { tags: after })],
  };
}

export function startStep(live: LiveCt): StepDraft {
  return {
    action: "start",
    severity: "configuration",
    summary: `start ${live.name ?? live.vmid}`,
    changes: [{ field: "status", before: "stopped", after: "running" }],
    calls: [lxcCalls.power(live.node, live.vmid, "start")],
  };
}

export function stopStep(live: LiveCt, power: PowerOptions, reason: string): StepDraft {
  const params: Record<string, ParamValue> = { timeout: power.shutdownTimeoutSeconds };
  if (power.forceStop) params.forceStop = 1;
  const how = power.forceStop
    ? `graceful shutdown, forced off after ${power.shutdownTimeoutSeconds}s`
    : `graceful shutdown, fails after ${power.shutdownTimeoutSeconds}s (use --force-stop to force it off)`;
  return {
    action: "stop",
    severity: "service-impact",
    summary: `stop ${live.name ?? live.vmid} ${reason}(${how})`,
    changes: [{ field: "status", before: "running", after: "stopped" }],
    calls: [lxcCalls.power(live.node, live.vmid, "shutdown", params)],
    shutdownTimeoutSeconds: power.shutdownTimeoutSeconds,
  };
}

export function rebootStep(live: LiveCt, keys: string[]): StepDraft {
  return {
    action: "reboot",
    severity: "service-impact",
    summary: `restart ${live.name ?? live.vmid} to apply pending changes (${keys.join(", ")})`,
    changes: keys.map((k) => ({ field: k, before: "pending", after: "applied" })),
    calls: [lxcCalls.power(live.node, live.vmid, "reboot")],
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
 * What a destroy does to each volume the container references: rootfs, every volume mount
 * point and every `unusedN` volume it owns are freed; bind mounts (host paths) and volumes
 * owned by another guest are kept.
 */
export function ctVolumesOf(live: LiveCt): { deleted: string[]; kept: string[] } {
  const referenced = [...Object.values(live.mounts).map((m) => m.volume), ...Object.values(live.unused)];
  const deleted = new Set<string>();
  const kept = new Set<string>();
  for (const volume of referenced) {
    if (isHostPath(volume)) continue;
    (ctVolumeOwner(volume) === live.vmid ? deleted : kept).add(volume);
  }
  return { deleted: [...deleted].sort(), kept: [...kept].sort() };
}

export function destroyStep(live: LiveCt): StepDraft {
  const { deleted: volumes, kept } = ctVolumesOf(live);
  const keeps = kept.length ? `; keeps ${kept.join(", ")} (owned by another guest)` : "";
  return {
    action: "destroy",
    severity: "data-loss-risk",
    summary:
      `destroy container ${live.name ?? ""} (vmid ${live.vmid}) and ` +
      (volumes.length ? `its volumes ${volumes.join(", ")}` : "its config (no volumes)") +
      `, and any other volume of vmid ${live.vmid} on its storages` +
      keeps,
    changes: [{ field: "guest", before: `${live.name ?? ""} vmid ${live.vmid} on ${live.node}`.trim() }],
    calls: [lxcCalls.destroy(live.node, live.vmid)],
    deletesVolumes: volumes,
  };
}
