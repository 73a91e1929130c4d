// Every API call the lxc kind plans, built in one place with its intent (plan/intent.ts).
// Containers differ from VMs here: config is PUT only (there is no POST config; PVE allocates
// new mount point volumes inside the PUT), volumes move with move_volume, and the create call
// takes a template and may take a root password, which the plan holds only as a reference.
import type { ConfigWrite, MigrateIntent, PowerAction, TemplateVolume } from "../../plan/intent.js";
import type { ApiCall, ParamValue, SecretRef } from "../../plan/types.js";
import { volumeOf } from "../../pve/index.js";
import type { VmidRef } from "../api-paths.js";
import { lxcEndpoints } from "./endpoints.js";
import { bodyOf } from "../clone-step.js";
import { bridgeOf, newVolumeBytes, newVolumeStorage } from "../formats.js";
import { CT_NIC_SLOT, MOUNT_SLOT } from "./model.js";

/** Parameters of create and config calls that are not config keys. */
const NOT_CONFIG = new Set([
  "node",
  "vmid",
  "digest",
  "delete",
  "revert",
  "start",
  "pool",
  "storage",
  "ostemplate",
  "password",
  "ssh-public-keys",
]);

const TEMPLATE_VOLUME = /^([a-zA-Z][\w\-.]*):vztmpl\/.+$/;

/** A mount point value as what it is: a new volume on a storage, an existing volume, or a host path. */
function mountWrite(key: string, value: string): ConfigWrite {
  const newOn = newVolumeStorage(value);
  const newBytes = newOn !== undefined ? newVolumeBytes(key, value) : undefined;
  return {
    key,
    as: "drive",
    media: "disk",
    ...(newOn !== undefined ? { newOn } : { volume: volumeOf(value) ?? "" }),
    ...(newBytes !== undefined ? { newBytes } : {}),
  };
}

/** The config keys a create or config call writes, each as what it is. */
export function lxcConfigWrites(params: Record<string, ParamValue>): ConfigWrite[] {
  const writes: ConfigWrite[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (NOT_CONFIG.has(key)) continue;
    const value = String(raw);
    if (MOUNT_SLOT.test(key)) writes.push(mountWrite(key, value));
    else if (CT_NIC_SLOT.test(key)) {
      const bridge = bridgeOf(key, value, "lxc");
      writes.push({ key, as: "nic", ...(bridge !== undefined ? { bridge } : {}) });
    } else writes.push({ key, as: "option" });
  }
  return writes;
}

export const lxcCalls = {
  /**
   * POST /nodes/{node}/lxc; `params.vmid` absent when apply allocates it. `secrets` names the
   * parameters sent from a reference (the root password), resolved only when the call is sent.
   */
  create(node: string, params: Record<string, ParamValue>, secrets?: Record<string, SecretRef>): ApiCall {
    const pool = params.pool !== undefined ? String(params.pool) : undefined;
    const template = TEMPLATE_VOLUME.exec(String(params.ostemplate ?? ""));
    return {
      ...lxcEndpoints.create(node, params),
      intent: {
        kind: "lxc",
        op: "create",
        writes: lxcConfigWrites(params),
        ...(pool !== undefined ? { pool } : {}),
        start: String(params.start) === "1",
        ...(template ? { template: { storage: template[1]!, volume: template[0] } } : {}),
      },
      ...(secrets !== undefined && Object.keys(secrets).length > 0 ? { secrets } : {}),
    };
  },

  /** A config write (PUT: applied at once, or left in `[pve:pending]` until the next start). */
  config(node: string, vmid: VmidRef, params: Record<string, ParamValue>, how: { allocates?: boolean } = {}): ApiCall {
    const deletes = params.delete !== undefined ? String(params.delete).split(",") : [];
    const reverts = params.revert !== undefined ? { reverts: String(params.revert).split(",") } : {};
    return {
      ...lxcEndpoints.config(node, vmid, bodyOf(params)),
      intent: { kind: "lxc", op: "configure", writes: lxcConfigWrites(params), deletes, ...reverts, allocates: how.allocates ?? false },
    };
  },

  /**
   * Deletes `unusedKey`, destroying its volume, which the plan expects to be `volume` (the
   * key was predicted, see unused-slots.ts): the executor checks before it sends.
   */
  destroyUnused(node: string, vmid: VmidRef, unusedKey: string, volume: string): ApiCall {
    const call = lxcCalls.config(node, vmid, { delete: unusedKey });
    return {
      ...call,
      intent: { kind: "lxc", op: "configure", writes: [], deletes: [unusedKey], allocates: false, expects: [{ key: unusedKey, volume }] },
    };
  },

  /**
   * Grows rootfs or a mount point to `sizeBytes` (PVE refuses to shrink); PVE 9 runs it as a
   * `resize` task. `grows`: its size when planned and where it is (preflight counts the growth there).
   */
  resize(node: string, vmid: VmidRef, slot: string, sizeBytes: number, grows?: { fromBytes: number; storage?: string }): ApiCall {
    return {
      // The disk and size are sent from the intent (plan/resolve-call.ts): said once.
      ...lxcEndpoints.resize(node, vmid),
      intent: { kind: "lxc", op: "resize", slot, sizeBytes, ...grows },
    };
  },

  /**
   * Moves a mount point's volume to another storage; the source stays as an unusedN entry
   * unless `deleteSource`. `sizeBytes`: what is copied, for preflight.
   */
  moveVolume(node: string, vmid: VmidRef, slot: string, storage: string, deleteSource = false, sizeBytes?: number): ApiCall {
    return {
      ...lxcEndpoints.moveVolume(node, vmid, { volume: slot, storage, delete: deleteSource ? 1 : 0 }),
      intent: { kind: "lxc", op: "move-volume", slot, storage, ...(sizeBytes !== undefined ? { sizeBytes } : {}) },
    };
  },

  /** POST …/migrate, with what preflight checks on the target (resources/migrate-step.ts builds both). */
  migrate(node: string, vmid: number, body: Record<string, ParamValue>, facts: Omit<MigrateIntent, "kind" | "op">): ApiCall {
    return { ...lxcEndpoints.migrate(node, vmid, body), intent: { kind: "lxc", op: "migrate", ...facts } };
  },

  power(node: string, vmid: number, action: PowerAction, params: Record<string, ParamValue> = {}): ApiCall {
    return { ...lxcEndpoints.status(node, vmid, action, params), intent: { kind: "lxc", op: "power", action } };
  },

  /** purge: also drops the vmid from backup jobs, replication and HA; volumes PVE does not reference are freed too. */
  destroy(node: string, vmid: number): ApiCall {
    return {
      ...lxcEndpoints.destroy(node, vmid, { purge: 1, "destroy-unreferenced-disks": 1 }),
      intent: { kind: "lxc", op: "destroy" },
    };
  },

  /**
   * Converts the container to a template in a `vztemplate` task. pve-container answers null,
   * not the task's UPID: the executor finds the task by its type to wait for it.
   */
  /** `volumes`: where the guest's volumes will be when it is converted (preflight checks their storages). */
  template(node: string, vmid: VmidRef, volumes: TemplateVolume[] = []): ApiCall {
    return { ...lxcEndpoints.template(node, vmid), intent: { kind: "lxc", op: "template", volumes } };
  },
};
