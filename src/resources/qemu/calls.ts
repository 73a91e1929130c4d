// Every API call the qemu kind plans, built in one place with its intent (plan/intent.ts):
// the value strings are read here, once, by the code that wrote them, so the engine never
// has to read them again.
import type { ConfigWrite, DriveMedia, MigrateIntent, PowerAction, TemplateVolume } from "../../plan/intent.js";
import type { ApiCall, ParamValue } from "../../plan/types.js";
import { driveMedia, isVmDriveKey, volumeOf } from "../../pve/index.js";
import type { VmidRef } from "../api-paths.js";
import { qemuEndpoints } from "./endpoints.js";
import { bodyOf } from "../clone-step.js";
import { bridgeOf, configParts, newVolumeBytes, newVolumeStorage } from "../formats.js";

/** Parameters of create and config calls that are not config keys. */
const NOT_CONFIG = new Set([
  "node",
  "vmid",
  "digest",
  "delete",
  "force",
  "revert",
  "skiplock",
  "start",
  "pool",
  "storage",
  "background_delay",
]);

const ISO_VOLUME = /^([a-zA-Z][\w\-.]*):iso\/.+$/;
/** `import-from=STORAGE:PATH`; an absolute path (root only) names no storage to check. */
const IMPORT_FROM = /(?:^|,)import-from=([a-zA-Z][\w\-.]*):([^,]+)/;

function driveWrite(key: string, value: string): ConfigWrite {
  const media = driveMedia(value);
  const newOn = newVolumeStorage(value);
  const volume = volumeOf(value) ?? "";
  const iso = media === "cdrom" ? ISO_VOLUME.exec(volume) : null;
  const image = IMPORT_FROM.exec(value);
  const newBytes = newOn !== undefined ? newVolumeBytes(key, value) : undefined;
  const format = newOn !== undefined ? configParts(key, value, "qemu")?.format : undefined;
  return {
    key,
    as: "drive",
    media,
    ...(newOn !== undefined ? { newOn } : { volume }),
    ...(newBytes !== undefined ? { newBytes } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(iso ? { iso: { storage: iso[1]!, volume } } : {}),
    ...(image ? { importFrom: { storage: image[1]!, volume: `${image[1]}:${image[2]}` } } : {}),
  };
}

/** The config keys a create or config call writes, each as what it is. */
export function configWrites(params: Record<string, ParamValue>): ConfigWrite[] {
  const writes: ConfigWrite[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (NOT_CONFIG.has(key)) continue;
    const value = String(raw);
    if (isVmDriveKey(key)) writes.push(driveWrite(key, value));
    else if (/^net\d+$/.test(key)) {
      const bridge = bridgeOf(key, value, "qemu");
      writes.push({ key, as: "nic", ...(bridge !== undefined ? { bridge } : {}) });
    } else writes.push({ key, as: "option" });
  }
  return writes;
}

export const qemuCalls = {
  /** POST /nodes/{node}/qemu; `params.vmid` absent when apply allocates it. */
  create(node: string, params: Record<string, ParamValue>): ApiCall {
    const pool = params.pool !== undefined ? String(params.pool) : undefined;
    return {
      ...qemuEndpoints.create(node, params),
      intent: {
        kind: "qemu",
        op: "create",
        writes: configWrites(params),
        ...(pool !== undefined ? { pool } : {}),
        start: String(params.start) === "1",
      },
    };
  },

  /**
   * A config write. POST when PVE must allocate (it then runs a task); `allocates` marks a
   * write that must not land twice (a new volume, a new NIC's MAC).
   */
  config(
    node: string,
    vmid: VmidRef,
    params: Record<string, ParamValue>,
    how: { method?: "PUT" | "POST"; allocates?: boolean; deletedMedia?: Record<string, DriveMedia> } = {},
  ): ApiCall {
    const deletes = params.delete !== undefined ? String(params.delete).split(",") : [];
    const reverts = params.revert !== undefined ? { reverts: String(params.revert).split(",") } : {};
    const { deletedMedia } = how;
    return {
      ...(how.method === "POST" ? qemuEndpoints.configPost : qemuEndpoints.config)(node, vmid, bodyOf(params)),
      intent: {
        kind: "qemu",
        op: "configure",
        writes: configWrites(params),
        deletes,
        ...reverts,
        ...(deletedMedia ? { deletedMedia } : {}),
        allocates: how.allocates ?? false,
      },
    };
  },

  /**
   * Grows a disk to `sizeBytes` (PVE refuses to shrink). `fromBytes`: its size when planned
   * and `storage` (preflight counts the growth there); `growOnly`: skipped when the disk is already that large.
   */
  resize(
    node: string,
    vmid: VmidRef,
    slot: string,
    sizeBytes: number,
    how: { growOnly?: boolean; fromBytes?: number; storage?: string } = {},
  ): ApiCall {
    const { fromBytes, storage } = how;
    return {
      // The disk and size are sent from the intent (plan/resolve-call.ts): said once.
      ...qemuEndpoints.resize(node, vmid),
      intent: {
        kind: "qemu",
        op: "resize",
        slot,
        sizeBytes,
        ...(fromBytes !== undefined ? { fromBytes } : {}),
        ...(storage !== undefined ? { storage } : {}),
      },
      ...(how.growOnly ? { growOnly: true } : {}),
    };
  },

  /**
   * Moves a disk's volume to another storage, or to another `format` (PVE's move_disk
   * `format`; the same storage is allowed then); the source stays as an unusedN entry unless
   * `deleteSource`. `sizeBytes`: what is copied, for preflight.
   */
  moveDisk(
    node: string,
    vmid: VmidRef,
    slot: string,
    storage: string,
    deleteSource = false,
    copy: { sizeBytes?: number; format?: string } = {},
  ): ApiCall {
    const { sizeBytes, format } = copy;
    return {
      ...qemuEndpoints.moveVolume(node, vmid, {
        disk: slot,
        storage,
        ...(format !== undefined ? { format } : {}),
        delete: deleteSource ? 1 : 0,
      }),
      intent: {
        kind: "qemu",
        op: "move-volume",
        slot,
        storage,
        ...(sizeBytes !== undefined ? { sizeBytes } : {}),
        ...(format !== undefined ? { format } : {}),
      },
    };
  },

  /**
   * Deletes `unusedKey`, destroying its volume (PVE always frees an unusedN it deletes), which
   * the plan expects to be `volume` (the key was predicted): the executor checks before it sends.
   */
  destroyUnused(node: string, vmid: VmidRef, unusedKey: string, volume: string): ApiCall {
    const call = qemuCalls.config(node, vmid, { delete: unusedKey });
    return {
      ...call,
      intent: { kind: "qemu", op: "configure", writes: [], deletes: [unusedKey], allocates: false, expects: [{ key: unusedKey, volume }] },
    };
  },

  /** POST …/migrate, with what preflight checks on the target (resources/migrate-step.ts builds both). */
  migrate(node: string, vmid: number, body: Record<string, ParamValue>, facts: Omit<MigrateIntent, "kind" | "op">): ApiCall {
    return { ...qemuEndpoints.migrate(node, vmid, body), intent: { kind: "qemu", op: "migrate", ...facts } };
  },

  power(node: string, vmid: number, action: PowerAction, params: Record<string, ParamValue> = {}): ApiCall {
    return { ...qemuEndpoints.status(node, vmid, action, params), intent: { kind: "qemu", op: "power", action } };
  },

  destroy(node: string, vmid: number): ApiCall {
    return { ...qemuEndpoints.destroy(node, vmid, { purge: 1 }), intent: { kind: "qemu", op: "destroy" } };
  },

  /** Converts every disk to a base image and marks the VM a template (a `qmtemplate` task). */
  /** `volumes`: where the guest's volumes will be when it is converted (preflight checks their storages). */
  template(node: string, vmid: VmidRef, volumes: TemplateVolume[] = []): ApiCall {
    return { ...qemuEndpoints.template(node, vmid), intent: { kind: "qemu", op: "template", volumes } };
  },
};
