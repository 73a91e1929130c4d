// Snapshot create, delete and rollback as pve-guest-common's AbstractConfig runs them inside the
// worker task: the refusals come in its order and fail the task (only the reserved names are
// refused before the task starts), the config shows `lock: snapshot|snapshot-delete|rollback`
// while the task runs.
import { isUnusedKey } from "../../pve/index.js";
import { driveSize, driveVolume, isDiskKey, isVolumeKey } from "../cluster/drives.js";
import { flockAtStart } from "../cluster/config-flock.js";
import { checkLock } from "../cluster/guest-config.js";
import type { SimCluster } from "../cluster/model.js";
import { pinSnapshot, snapshotDiskVolids, unpinSnapshot, vmstateBytes, vmstateStorage } from "../cluster/snapshot-space.js";
import type { GuestConfig, GuestState, GuestType, SnapshotState } from "../cluster/types.js";
import { allocateVolume, findStorage, findVolume, removeVolume, requireStorage } from "../cluster/volumes.js";
import { type HandlerContext, PveApiError } from "../contract.js";
import { flag, pathGuest, sim, startGuestTask, str } from "./context.js";
import { snapshotsPossible } from "./feature.js";
import { startVm } from "./qemu-power.js";

/** Keys __snapshot_copy_config leaves out of a snapshot section (and rollback leaves alone). */
const NOT_COPIED = new Set(["lock", "parent", "snaptime", "vmstate", "snapstate", "description", "digest"]);

export function requireSnapshot(guest: GuestState, name: string): SnapshotState {
  const snap = guest.snapshots.find((s) => s.name === name);
  if (!snap) throw new PveApiError(500, `snapshot '${name}' does not exist`);
  return snap;
}

/**
 * Runs a snapshot operation as a task holding `lock` in the config while it runs. `precheck`
 * runs first inside the task (what PVE checks before the guest's lock); a guest locked by
 * something else then fails the task.
 */
function lockedTask(
  ctx: HandlerContext,
  guest: GuestState,
  options: {
    type: string;
    lock: string;
    kind: string;
    bytes?: number;
    precheck?: () => void;
    work: (log: (l: string) => void) => void;
  },
): string {
  const alreadyLocked = guest.config.lock;
  const waitFlock = flockAtStart(sim(ctx).state, guest.type, guest.vmid);
  if (alreadyLocked === undefined) guest.config.lock = options.lock;
  const release = () => {
    if (alreadyLocked === undefined && guest.config.lock === options.lock) delete guest.config.lock;
  };
  return startGuestTask(ctx, {
    type: options.type,
    vmid: guest.vmid,
    kind: options.kind,
    ...(options.bytes !== undefined ? { bytes: options.bytes } : {}),
    onFailure: release,
    work: (task) => {
      try {
        waitFlock();
        options.precheck?.();
        if (alreadyLocked !== undefined) checkLock(guest);
        options.work((l) => task.log(l));
      } finally {
        release();
      }
    },
  });
}

function copyConfig(config: GuestConfig): GuestConfig {
  const out: GuestConfig = {};
  for (const [k, v] of Object.entries(config)) if (!NOT_COPIED.has(k) && !isUnusedKey(k)) out[k] = v;
  return out;
}

/** Saves a running VM's RAM to a `vm-<vmid>-state-<snap>` volume; returns its volid. */
function saveVmstate(model: SimCluster, guest: GuestState, name: string, log: (l: string) => void): string {
  const storage = requireStorage(model.state, vmstateStorage(model.state, guest), guest.node);
  log(`saving VM state and RAM using storage '${storage.id}'`);
  const volume = allocateVolume(model.state, {
    storage,
    node: guest.node,
    vmid: guest.vmid,
    size: vmstateBytes(guest.config),
    content: "images",
    format: "raw",
    name: `vm-${guest.vmid}-state-${name}`,
    ctime: model.now(),
  });
  return volume.volid;
}

export function createSnapshot(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const name = str(ctx, "snapname") ?? "";
    if (name === "current" || name.toLowerCase() === "pending") {
      throw new PveApiError(500, `unable to use snapshot name '${name}' (reserved name)`);
    }
    const description = str(ctx, "description") ?? "";
    const wantVmstate = type === "qemu" && flag(ctx, "vmstate");
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmsnapshot" : "vzsnapshot",
      lock: "snapshot",
      kind: "snapshot",
      // saving RAM takes time by the memory's size
      ...(wantVmstate && guest.status === "running" ? { bytes: vmstateBytes(guest.config) / 2 } : {}),
      precheck: () => {
        if (guest.config.template === 1) throw new Error("you can't take a snapshot if it's a template");
      },
      work: (log) => {
        if (guest.snapshots.some((s) => s.name === name)) throw new Error(`snapshot name '${name}' already used`);
        if (!snapshotsPossible(model, guest, guest.config)) throw new Error("snapshot feature is not available");
        // a snapshot named like an older one's parent would make a cycle: PVE drops that link
        for (const s of guest.snapshots) {
          if (s.parent === name) {
            log(`deleting parent '${name}' reference from '${s.name}' to avoid bogus snapshot cycle.`);
            delete s.parent;
          }
        }
        const config = copyConfig(guest.config);
        // vmstate is only saved for a running VM; a stopped one gets a plain snapshot
        if (wantVmstate && guest.status === "running") {
          config.vmstate = saveVmstate(model, guest, name, log);
          config.runningmachine = String(guest.config.machine ?? "pc-i440fx-10.1+pve0");
        }
        const snap: SnapshotState = { name, description, snaptime: model.now(), vmstate: config.vmstate !== undefined, config };
        if (guest.config.parent !== undefined) snap.parent = String(guest.config.parent);
        pinSnapshot(model.state, guest, snap);
        guest.snapshots.push(snap);
        guest.config.parent = name;
      },
    });
  };
}

function forgetSnapshot(model: SimCluster, guest: GuestState, snap: SnapshotState): void {
  const relink = (holder: { parent?: string | number | undefined }) => {
    if (holder.parent !== snap.name) return;
    if (snap.parent) holder.parent = snap.parent;
    else delete holder.parent;
  };
  for (const s of guest.snapshots) relink(s);
  relink(guest.config as { parent?: string | number });
  if (snap.config.vmstate !== undefined) removeVolume(model.state, String(snap.config.vmstate), guest.node);
  unpinSnapshot(model.state, guest, snap);
  guest.snapshots = guest.snapshots.filter((s) => s !== snap);
}

export function deleteSnapshot(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const name = str(ctx, "snapname") ?? "";
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmdelsnapshot" : "vzdelsnapshot",
      lock: "snapshot-delete",
      kind: "snapshot",
      // a missing snapshot is found before the lock is taken
      precheck: () => void requireSnapshot(guest, name),
      work: () => {
        if (guest.config.template === 1) throw new Error("you can't delete a snapshot if vm is a template");
        forgetSnapshot(model, guest, requireSnapshot(guest, name));
      },
    });
  };
}

function volumesOf(guest: GuestState, config: GuestConfig): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(config)) {
    if (!isVolumeKey(guest.type, k)) continue;
    const volid = driveVolume(String(v));
    if (volid) out.add(volid);
  }
  return out;
}

/**
 * ZFS rolls a dataset back only to its most recent snapshot (volume_rollback_is_possible);
 * the other storages roll back to any.
 */
function checkRollbackPossible(model: SimCluster, guest: GuestState, snap: SnapshotState): void {
  for (const volid of snapshotDiskVolids(guest, snap.config)) {
    if (findStorage(model.state, volid.split(":")[0] ?? "")?.type !== "zfspool") continue;
    const newest = guest.snapshots
      .filter((s) => snapshotDiskVolids(guest, s.config).includes(volid))
      .reduce<SnapshotState | undefined>((a, b) => (a === undefined || b.snaptime >= a.snaptime ? b : a), undefined);
    if (newest && newest !== snap) {
      const volname = volid.slice(volid.indexOf(":") + 1);
      throw new Error(`can't rollback, '${snap.name}' is not most recent snapshot on '${volname}'`);
    }
  }
}

/** The config after a rollback: the snapshot's, plus the current description and unusedN. */
function rolledBackConfig(guest: GuestState, snap: SnapshotState): GuestConfig {
  const next: GuestConfig = {};
  for (const [k, v] of Object.entries(guest.config)) if (k === "description" || isUnusedKey(k)) next[k] = v;
  const keep = volumesOf(guest, snap.config);
  const unused = new Set(
    Object.entries(next)
      .filter(([k]) => isUnusedKey(k))
      .map(([, v]) => String(v)),
  );
  let n = 0;
  for (const volid of volumesOf(guest, guest.config)) {
    if (keep.has(volid) || unused.has(volid)) continue;
    while (next[`unused${n}`] !== undefined) n++;
    next[`unused${n}`] = volid;
  }
  for (const [k, v] of Object.entries(snap.config)) if (k !== "vmstate" && k !== "runningmachine" && k !== "runningcpu") next[k] = v;
  next.parent = snap.name;
  return next;
}

function restoreSizes(model: SimCluster, guest: GuestState, snap: SnapshotState): void {
  for (const [k, v] of Object.entries(snap.config)) {
    if (!isDiskKey(guest.type, k)) continue;
    const volume = findVolume(model.state, driveVolume(String(v)) ?? "", guest.node);
    const size = driveSize(guest.type, k, String(v));
    if (volume && size > 0) volume.size = size;
  }
}

export function rollbackSnapshot(type: GuestType) {
  return (ctx: HandlerContext): string => {
    const guest = pathGuest(ctx, type);
    const model = sim(ctx);
    const name = str(ctx, "snapname") ?? "";
    const start = flag(ctx, "start");
    return lockedTask(ctx, guest, {
      type: type === "qemu" ? "qmrollback" : "vzrollback",
      lock: "rollback",
      kind: "rollback",
      precheck: () => {
        if (guest.config.template === 1) throw new Error("you can't rollback if vm is a template");
        checkRollbackPossible(model, guest, requireSnapshot(guest, name));
      },
      work: () => {
        const snap = requireSnapshot(guest, name);
        if (guest.status === "running") model.markStopped(guest);
        restoreSizes(model, guest, snap);
        guest.config = rolledBackConfig(guest, snap);
        guest.pending = {};
        guest.pendingDelete = {};
        // a RAM snapshot resumes the VM where it was; `start` boots it after the rollback
        if (snap.vmstate || start) {
          if (type === "qemu") startVm(model, guest, false);
          else model.markRunning(guest);
        }
      },
    });
  };
}
